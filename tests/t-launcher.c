/* Facts about the launchers of a namespace's compiled programs. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "relocate/launcher.h"

#define NS "/opt/extras.ubuntu.com/bells"

int
main(void)
{
	char *s;

	test_plan(9);

	s = launcher_script(NS "/bin/.bells", NS "/share");
	test_str(s, ==, "#!/bin/bash\n"
	         "# dh_extras_launchers: " NS "/bin/.bells with the "
	         "namespace's data in sight\n"
	         "case \":${XDG_DATA_DIRS:=/usr/local/share:/usr/share}:\" in\n"
	         "*:" NS "/share:*) ;;\n"
	         "*) XDG_DATA_DIRS='" NS "/share':$XDG_DATA_DIRS ;;\n"
	         "esac\n"
	         "export XDG_DATA_DIRS\n"
	         "exec -a \"$0\" '" NS "/bin/.bells' \"$@\"\n");
	test_ok(launcher_is(s, strlen(s)));
	free(s);

	test_ok(!launcher_is("#!/bin/bash\necho", 16));
	test_ok(!launcher_is("\177ELF", 4));
	/* Nothing a shell would read otherwise. */
	test_ok(launcher_script(NS "/bin/a'b", NS "/share") == NULL);
	test_ok(launcher_script(NS "/bin/a b", NS "/share") == NULL);
	test_ok(launcher_script(NS "/bin/$x", NS "/share") == NULL);
	test_ok(launcher_script("bin/a", NS "/share") == NULL);
	test_ok(launcher_script(NS "/bin/a", NS "/sh*re") == NULL);
	return test_done();
}
