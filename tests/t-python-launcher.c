/* Facts about pointing Python launchers at the namespace's modules. */
#include <stdlib.h>
#include <string.h>

#include "../tests/tap.h"
#include "relocate/python-launcher.h"

static const char *const dirs[] = {
	"/opt/extras.ubuntu.com/quill/lib/python3/dist-packages",
};
static struct python_launcher pl = { dirs, 1, NULL };

#define LINE "import sys; sys.path[1:1] = " \
	"['/opt/extras.ubuntu.com/quill/lib/python3/dist-packages']  " \
	PYTHON_LAUNCHER_MARK "\n"

/* The patched S, or "(unchanged)". */
static const char *
patched(const char *s)
{
	static char keep[4096];
	size_t len;
	char *out = python_launcher_patch(s, strlen(s), &len, &pl);

	if (out == NULL)
		return "(unchanged)";
	snprintf(keep, sizeof(keep), "%.*s", (int)len, out);
	free(out);
	return keep;
}

int
main(void)
{
	test_plan(12);

	test_ok(python_launcher_is("#!/usr/bin/python3\n", 19));
	test_ok(python_launcher_is("#! /usr/bin/env python3 -Es\nx", 29));
	test_ok(!python_launcher_is("#!/bin/sh\npython3\n", 18));
	test_ok(!python_launcher_is("import sys\n", 11));

	test_str(patched("#!/usr/bin/python3\nimport quill\n"), ==,
	         "#!/usr/bin/python3\n" LINE "import quill\n");
	test_str(patched("#!/usr/bin/python3\n# -*- coding: utf-8 -*-\n\n"
	                 "import re\n"), ==,
	         "#!/usr/bin/python3\n# -*- coding: utf-8 -*-\n\n" LINE
	         "import re\n");
	test_str(patched("#!/usr/bin/python3\n\"\"\"Quill.\n\nWrites.\"\"\"\n"
	                 "main()\n"), ==,
	         "#!/usr/bin/python3\n\"\"\"Quill.\n\nWrites.\"\"\"\n" LINE
	         "main()\n");
	test_str(patched("#!/usr/bin/python3\n'''Doc.'''\n"
	                 "from __future__ import (annotations,\n"
	                 "    division)\nimport os\n"), ==,
	         "#!/usr/bin/python3\n'''Doc.'''\n"
	         "from __future__ import (annotations,\n    division)\n"
	         LINE "import os\n");
	test_str(patched("#!/usr/bin/python3"), ==,
	         "#!/usr/bin/python3\n" LINE);
	test_str(patched("#!/usr/bin/python3\n" LINE "main()\n"), ==,
	         "(unchanged)");
	test_str(patched("#!/bin/sh\nexec python3 -m quill\n"), ==,
	         "(unchanged)");

	/* With the app id: TMPDIR where its profile lets it write. */
	pl.app = "quill";
	test_str(patched("#!/usr/bin/python3\nmain()\n"), ==,
	         "#!/usr/bin/python3\n" LINE
	         "import os; os.environ['TMPDIR'] = "
	         "os.path.expanduser('~/.cache/quill/tmp')  "
	         PYTHON_LAUNCHER_MARK "\n"
	         "try: os.makedirs(os.environ['TMPDIR'], 0o700, True)  "
	         PYTHON_LAUNCHER_MARK "\n"
	         "except OSError: pass  " PYTHON_LAUNCHER_MARK "\nmain()\n");
	return test_done();
}
