# The lintian profile for extras packages: Debian's own checks, less the
# ones that fire on what an extras package ships by design.  Use it as
# "lintian --profile dh-extras *.changes", or through debuild with
# DEBUILD_LINTIAN_OPTS="--profile dh-extras" in ~/.devscripts.
#
# dir-or-file-in-opt: Policy 9.1.2 keeps /opt from packages because the
# administrator owns it; an extras package lives in ROOT/APP
# (/opt/extras.ubuntu.com/APP by default) precisely so that it never
# meets the archive's files.  What matters instead, that nothing but the
# namespace and the allowed exports is shipped, is checked by
# dh_extras_check and extras-review.
#
# unknown-control-file: an extras package carries its declaration as the
# control file extras.yaml (dh_extras_declare), from which the gate
# generates the profile again.  Which control files an extras package may
# have at all is the gate's decision: extras-review refuses any other.
#
# package-installs-python-bytecode, package-installs-python-pycache-dir:
# Python policy 3.7 leaves bytecode to py3compile in the postinst; an
# extras package runs no maintainer script but the ones dh-extras
# generates, and a root process compiling files of the namespace would
# run what a link there leads to.  dh_extras_python compiles the
# namespace's private modules at build time instead, hash-based (PEP 552),
# so the files do not depend on install times; a Python of another
# version ignores them (its own cache tag) and compiles in memory.
Profile: dh-extras/main
Extends: debian/main
Disable-Tags: dir-or-file-in-opt unknown-control-file
 package-installs-python-bytecode package-installs-python-pycache-dir
