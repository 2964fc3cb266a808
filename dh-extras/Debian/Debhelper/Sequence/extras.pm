#!/usr/bin/perl
# dh-extras: the debhelper sequence add-on.
#
# Used with "dh $@ --with extras" or "Build-Depends: dh-sequence-extras".
# It compiles the package for its namespace, installs it as usual, and
# relocates every binary package into the namespace before dh_link.

use strict;
use warnings;
use Debian::Debhelper::Dh_Lib;

# Compile for the namespace, install as usual: dh_auto_configure,
# dh_auto_build, dh_auto_test, dh_auto_install and dh_auto_clean come first
# on the PATH of dh and of every override target it runs, from the "auto"
# directory.  Each runs debhelper's own command for the build system
# debhelper selects, with the namespace as its prefix after all other
# arguments, and dh_auto_install returns with the files under usr/ where
# the maintainer expects them (see auto/dh_auto_step).  Nothing runs when
# dh loads this file: a bad debian/extras.yaml fails the build step that
# reads it, not "dh clean".
#
# The directory comes from $DH_EXTRAS_AUTODIR, else from beside this file
# in a source tree (dh-extras/auto), else from the installed package.
# Without it every step would silently build for /usr: fail instead.
use File::Basename qw(dirname);
my $auto_dir = $ENV{DH_EXTRAS_AUTODIR};
if (not defined $auto_dir) {
	my $beside = dirname(__FILE__) . '/../../../auto';
	$auto_dir = -x "$beside/dh_auto_configure" ? $beside
	                                            : '/usr/share/dh-extras/auto';
}
error("dh-extras: $auto_dir/dh_auto_configure is missing: the namespace "
      . "cannot reach the build (set DH_EXTRAS_AUTODIR?)")
    unless -x "$auto_dir/dh_auto_configure";
$ENV{PATH} = "$auto_dir:$ENV{PATH}"
    unless (split /:/, $ENV{PATH})[0] eq $auto_dir;

# debian/NAME of the package's old name reaches debian/extras-NAME from
# the moment dh_prep has emptied the staging directories.  (Once: a second
# entry of the same command before dh_auto_configure was seen not to run
# in the binary sequence.)
insert_after('dh_prep', 'dh_extras_pkgdirs');
insert_before('dh_clean', 'dh_extras_clean');

# Back to usr/ whatever an install made outside dh_auto_install (a
# "$(MAKE) install" in an override) put under the namespace prefix.
insert_after('dh_auto_install', 'dh_extras_unprefix');

# Relocate once everything is installed, before dh_link makes links
# between final paths and dh_compress, dh_strip and dh_shlibdeps see the
# files where they will live.
insert_before('dh_link', 'dh_extras_relocate');

# dh_link makes the links of debian/PKG.links where the maintainer wrote
# them, outside the namespace: relocate those too.
insert_after('dh_link', 'dh_extras_links');

# The desktop integration that needs the final layout, in this order:
# metainfo, Python, Perl, Ruby and Node programs pointed at their modules,
# the exported icons kept in the namespace under their own names, compiled
# programs started with the namespace's data on XDG_DATA_DIRS, then
# schemas compiled where relocation put them and seen by the exported
# entry points that run no launcher.
insert_after('dh_extras_relocate', 'dh_extras_metainfo');
insert_after('dh_extras_metainfo', 'dh_extras_python');
insert_after('dh_extras_python', 'dh_extras_modules');
insert_after('dh_extras_modules', 'dh_extras_icons');
insert_after('dh_extras_icons', 'dh_extras_launchers');
insert_after('dh_extras_launchers', 'dh_extras_gsettings');

# The namespace's libraries serve the app's own packages only: their
# shlibs and symbols files go once dh_shlibdeps has used them.
# Nor is ldconfig, whose cache never sees the namespace, triggered.
insert_after('dh_shlibdeps', 'dh_extras_privlibs');
add_command_options('dh_makeshlibs', '--no-scripts');

# Confine the app once its files have their final paths and modes
# (after dh_fixperms), before dh_installdeb turns the profile into a
# conffile.
insert_before('dh_installdeb', 'dh_extras_apparmor');

# An extras package runs no maintainer script but the ones dh-extras
# generates: whatever dh_installdeb made of the author's scripts and of
# other helpers' snippets is replaced.
insert_after('dh_installdeb', 'dh_extras_scripts');

# Ship the declaration the profile was generated from, so that the gate
# can generate it again and compare.
insert_after('dh_installdeb', 'dh_extras_declare');

# The build ran under the maintainer's package names; each package takes
# its extras name where it meets the outside, in the control file
# dh_gencontrol wrote and in debian/files, so that dpkg-deb writes
# extras-NAME_*.deb and dpkg-genchanges lists it.
insert_after('dh_gencontrol', 'dh_extras_rename');

# The review gate at build time, on the finished trees: refuse the build
# of what the store would refuse.
insert_before('dh_builddeb', 'dh_extras_check');

# Debug symbols would land in /usr/lib/debug, outside any namespace: no
# dbgsym package, so dh_strip drops the debug information and dh_dwz,
# which compresses it, has nothing to do but harm: it refuses a program
# patchelf gave a RUNPATH ("Allocatable section ... after non-allocatable
# ones"), as dh_extras_relocate does to one whose libraries are in the
# namespace and that was linked without one (plain Makefiles, CMake and
# Meson install none).
add_command_options('dh_strip', '--no-automatic-dbgsym');
remove_command('dh_dwz');

1;
