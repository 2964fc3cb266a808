/*
 * dh-programs.h: the programs a package ships in the namespace's program
 * directories, for the helpers that give them a line to find the
 * namespace's modules (dh_extras_python, dh_extras_modules).
 */
#ifndef DH_EXTRAS_DH_PROGRAMS_H
#define DH_EXTRAS_DH_PROGRAMS_H

#include <stddef.h>

#include <dpkg/error.h>

#include "namespace/namespace.h"

/* How much of each program dh_programs_each() reads for FN to judge. */
#define DH_PROGRAM_HEAD 512

/*
 * Called with the path of a program and its first N bytes (at most
 * DH_PROGRAM_HEAD) in HEAD; 0 to go on, -1 to stop there.
 */
typedef int dh_program_fn(const char *path, const char *head, size_t n,
                          void *ctx);

/*
 * FN for each regular file (not a link) in PKGDIR's NS/bin, NS/sbin,
 * NS/games and NS/libexec: 0, or -1 when FN returned -1 (its error is
 * FN's to report) or with ERR when a file cannot be opened.
 */
int dh_programs_each(const struct extras_namespace *ns, const char *pkgdir,
                     dh_program_fn *fn, void *ctx, struct dpkg_error *err);

#endif
