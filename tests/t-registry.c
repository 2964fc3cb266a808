/* Facts about the registry's checks on what uploaders give it. */
#include <string.h>

#include "../tests/tap.h"
#include "conflicts/registry.h"

int
main(void)
{
	char fpr[65];

	test_plan(16);

	test_ok(registry_check_fingerprint(
	        "31103B18C491232EAC153AB84A9B5CF97563A262", fpr) == NULL);
	test_str(fpr, ==, "31103B18C491232EAC153AB84A9B5CF97563A262");
	/* As gpg prints it: groups of four, lower case. */
	test_ok(registry_check_fingerprint("3110 3b18 c491 232e ac15  3ab8 "
	                                   "4a9b 5cf9 7563 a262", fpr) == NULL);
	test_str(fpr, ==, "31103B18C491232EAC153AB84A9B5CF97563A262");
	test_ok(registry_check_fingerprint(
	        "31103B18C491232EAC153AB84A9B5CF97563A262"
	        "31103B18C491232EAC153AB8", fpr) == NULL);
	test_ok(registry_check_fingerprint("4A9B5CF97563A262", fpr) != NULL);
	test_ok(registry_check_fingerprint(
	        "31103B18C491232EAC153AB84A9B5CF97563A26Z", fpr) != NULL);
	test_ok(registry_check_fingerprint("", fpr) != NULL);

	/* Newer as dpkg compares versions. */
	test_ok(registry_version_newer("1.0-2", "1.0-1"));
	test_ok(!registry_version_newer("1.0-1", "1.0-1"));
	test_ok(!registry_version_newer("1.0~rc1-1", "1.0-1"));
	test_ok(registry_version_newer("1:0.1-1", "9.9-1"));
	test_ok(registry_version_newer("1.10-1", "1.9-1"));
	test_ok(!registry_version_newer("1.0-1", "1.0-1+b1"));
	test_ok(!registry_version_newer("not a version!", "1.0-1"));
	/* A damaged record does not lock an app out. */
	test_ok(registry_version_newer("1.0-1", "not a version!"));

	return test_done();
}
