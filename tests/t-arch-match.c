/* Facts about architecture restrictions, as Dpkg::Arch sees them. */
#include "../tests/tap.h"
#include "debian/arch-match.h"

int
main(void)
{
	test_plan(14);
	test_ok(arch_matches("amd64", "any"));
	test_ok(arch_matches("amd64", "amd64"));
	test_ok(arch_matches("amd64", "linux-any"));
	test_ok(arch_matches("amd64", "any-amd64"));
	test_ok(arch_matches("armhf", "any-arm"));
	test_ok(arch_matches("armhf", "linux-any"));
	test_ok(!arch_matches("amd64", "i386"));
	test_ok(!arch_matches("amd64", "kfreebsd-any"));
	test_ok(!arch_matches("amd64", "any-i386"));
	test_ok(!arch_matches("amd64", "all"));
	test_ok(arch_matches("all", "all"));
	test_ok(!arch_matches("all", "any"));
	test_ok(arch_list_matches("amd64", "i386 linux-any"));
	test_ok(!arch_list_matches("amd64", "i386 arm64"));
	return test_done();
}
