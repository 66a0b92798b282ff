// Empty: the module is FuzzerDriver.h; `-sanitize=fuzzer` links the definition.
