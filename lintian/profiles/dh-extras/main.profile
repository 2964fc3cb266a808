# The lintian profile for extras packages: Debian's own checks, less the
# one that fires on every file an extras package ships by design.  Use it
# as "lintian --profile dh-extras *.changes".
#
# Policy 9.1.2 keeps /opt from packages because the administrator owns
# it; an extras package lives in ROOT/APP (/opt/extras.ubuntu.com/APP by
# default) precisely so that it never meets the archive's files.  What
# matters instead, that nothing but the namespace and the allowed exports
# is shipped, is checked by dh_extras_check and extras-review.
Profile: dh-extras/main
Extends: debian/main
Disable-Tags: dir-or-file-in-opt
