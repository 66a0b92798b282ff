// The only C in the package: libarchive's headers, plus the constants Swift cannot
// import because libarchive defines them as casts (`#define AE_IFREG ((__LA_MODE_T)0100000)`),
// and zlib's, for its CRC-32 (libarchive links zlib already).
#ifndef DOCUMENTKIT_CARCHIVE_SHIM_H
#define DOCUMENTKIT_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>
#include <locale.h>
#include <zlib.h>

static const unsigned int CARCHIVE_AE_IFMT = AE_IFMT;
static const unsigned int CARCHIVE_AE_IFREG = AE_IFREG;
static const unsigned int CARCHIVE_AE_IFLNK = AE_IFLNK;
static const unsigned int CARCHIVE_AE_IFDIR = AE_IFDIR;
static const unsigned int CARCHIVE_AE_IFSOCK = AE_IFSOCK;
static const unsigned int CARCHIVE_AE_IFCHR = AE_IFCHR;
static const unsigned int CARCHIVE_AE_IFBLK = AE_IFBLK;
static const unsigned int CARCHIVE_AE_IFIFO = AE_IFIFO;

#endif
