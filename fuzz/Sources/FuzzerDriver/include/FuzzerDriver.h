// libFuzzer's entry point for programs that have their own `main`, declared here because
// libFuzzer ships no header for it. A SwiftPM executable's `main` is its module's (SwiftPM
// renames it so tests can link executables), so each fuzz target calls this from its
// main.swift instead of relying on libFuzzer's `main`.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
