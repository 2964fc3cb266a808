/*
 * arch-match.h: whether a Debian architecture matches an architecture
 * restriction ("any", "all", "linux-any", "any-amd64", "amd64 i386").
 *
 * libdpkg's C API validates architecture names but leaves wildcard
 * matching to the Perl modules; this follows Dpkg::Arch::debarch_is over
 * the same tables dpkg ships (tupletable, cputable).
 */
#ifndef DH_EXTRAS_ARCH_MATCH_H
#define DH_EXTRAS_ARCH_MATCH_H

#include <stdbool.h>

/* Whether ARCH (a real architecture) is matched by the WILDCARD. */
bool arch_matches(const char *arch, const char *wildcard);

/* Whether ARCH is matched by any word of LIST ("amd64 linux-any"). */
bool arch_list_matches(const char *arch, const char *list);

/* The host architecture: $DEB_HOST_ARCH, else dpkg's native one. */
const char *arch_host(void);

#endif
