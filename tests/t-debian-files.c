/* Facts about the kinds of debhelper files the converter knows. */
#include <dpkg/dpkg.h>
#include <dpkg/program.h>

#include "../tests/tap.h"
#include "convert/debian-files.h"

int
main(int argc, char **argv)
{
	(void)argc;
	dpkg_program_init(argv[0]);
	test_plan(16);

	test_int(debian_file_kind("install"), ==, DEBIAN_FILE_KEEP);
	test_int(debian_file_kind("postinst"), ==, DEBIAN_FILE_SCRIPT);
	test_int(debian_file_kind("preinst"), ==, DEBIAN_FILE_SCRIPT);
	test_int(debian_file_kind("prerm"), ==, DEBIAN_FILE_SCRIPT);
	test_int(debian_file_kind("postrm"), ==, DEBIAN_FILE_SCRIPT);
	test_int(debian_file_kind("config"), ==, DEBIAN_FILE_DEBCONF);
	test_int(debian_file_kind("templates"), ==, DEBIAN_FILE_DEBCONF);
	test_int(debian_file_kind("links"), ==, DEBIAN_FILE_LINKS);
	test_int(debian_file_kind("dirs"), ==, DEBIAN_FILE_DIRS);
	test_int(debian_file_kind("cron.daily"), ==, DEBIAN_FILE_DROP);
	test_int(debian_file_kind("service"), ==, DEBIAN_FILE_DROP);
	test_int(debian_file_kind("doc-base.manual"), ==, DEBIAN_FILE_DROP);
	test_int(debian_file_kind("symbols"), ==, DEBIAN_FILE_LIBRARY);
	test_int(debian_file_kind("shlibs"), ==, DEBIAN_FILE_LIBRARY);
	test_int(debian_file_kind("1"), ==, DEBIAN_FILE_UNKNOWN);
	test_int(debian_file_kind("xpm"), ==, DEBIAN_FILE_UNKNOWN);

	return test_done();
}
