#!/bin/sh
# The gate's .deb reader against dpkg on real archive packages: every
# member of the .debs apt has cached on this machine (up to 60, spread
# over the cache), as extras-review --members prints it, is the member
# dpkg-deb's data stream holds, read by Python's own tar reader.

. "$TOP/tests/lib.sh"

ls /var/cache/apt/archives/*.deb >cached 2>/dev/null || :
if [ -s cached ] && [ -x /usr/bin/python3 ]; then
	test_set_prereq CACHED
fi

test_expect_success CACHED 'extras-review --members: what dpkg-deb holds, for real packages' '
	n=$(wc -l <cached) &&
	step=$(( (n + 59) / 60 )) &&
	awk -v step="$step" "NR % step == 0" cached >sample &&
	test -s sample &&
	while read -r deb; do
		extras-review --members "$deb" >ours.raw &&
		PYTHONPATH="$TOP/tests" /usr/bin/python3 -c "
import sys
from debar import fsys_members
print(\"\\n\".join(fsys_members(sys.argv[1])))" "$deb" >dpkg.raw &&
		sort ours.raw >ours && sort dpkg.raw >dpkg && test -s ours &&
		diff -u dpkg ours || { echo "differs: $deb"; return 1; }
	done <sample &&
	echo "$(wc -l <sample) packages compared"
'

test_expect_success 'extras-review --members: bad input is one line, status 2' '
	echo "not a package" >text.deb &&
	expect_status 2 extras-review --members text.deb 2>err &&
	grep_q "^extras-review: error: text.deb: not an ar archive$" err
'

test_done
