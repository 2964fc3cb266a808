#!/usr/bin/perl
# dh-extras: the debhelper sequence add-on.
#
# Used with "dh $@ --with extras" or "Build-Depends: dh-sequence-extras".
# It compiles the package for its namespace, installs it as usual, and
# relocates every binary package into the namespace before dh_link.

use strict;
use warnings;
use Debian::Debhelper::Dh_Lib;

# Compile for the namespace, install as usual.  Each row says how to tell
# a build system the namespace (%NS%) as its prefix when it configures and
# builds, so that compiled-in paths point into the namespace.  Where the
# namespace stays the install prefix too (autoconf's Makefiles), the files
# install under debian/tmp/NS/ and dh_extras_unprefix brings them back to
# usr/, etc/ and var/ right after dh_auto_install, overridden or not, so
# the maintainer's debian/*.install files and debian/rules overrides find
# them where they always did.  The first row whose files exist is the
# build system, tried in the order debhelper tries its own.
my @build_systems = (
	{
		name => 'autoconf',
		files => [qw(configure.ac configure.in configure)],
		configure => [qw(--prefix=%NS% --sysconfdir=%NS%/etc
		                 --localstatedir=%NS%/var)],
	},
	# debhelper puts its own -DCMAKE_INSTALL_PREFIX=/usr before the
	# arguments after "--", and the last -D wins.  GNUInstallDirs moves
	# etc and var of an /opt prefix to /etc/opt and /var/opt: keep them
	# in the namespace.
	{
		name => 'cmake',
		files => [qw(CMakeLists.txt)],
		configure => [qw(-DCMAKE_INSTALL_PREFIX=%NS%
		                 -DCMAKE_INSTALL_SYSCONFDIR=%NS%/etc
		                 -DCMAKE_INSTALL_LOCALSTATEDIR=%NS%/var)],
	},
	# meson setup takes debhelper's --prefix=/usr --sysconfdir=/etc
	# --localstatedir=/var first, ours last; the last one wins.
	{
		name => 'meson',
		files => [qw(meson.build)],
		configure => [qw(--prefix=%NS% --sysconfdir=%NS%/etc
		                 --localstatedir=%NS%/var)],
	},
	# Nothing is compiled in: modules find their data through paths the
	# relocation patches, and dh_extras_python points the launchers at
	# the namespace's dist-packages.
	{
		name => 'python',
		files => [qw(setup.py pyproject.toml)],
		why => 'modules are found through their launchers',
	},
	{
		# Plain Makefiles read the prefix when building; installing
		# stays as the maintainer wrote it.
		name => 'makefile',
		files => [qw(GNUmakefile makefile Makefile)],
		build => [qw(prefix=%NS% PREFIX=%NS%)],
	},
);

sub extras_namespace {
	my $ns = qx{dh_extras_relocate --print-namespace};
	error("dh_extras_relocate --print-namespace failed") if $? != 0;
	chomp $ns;
	return $ns;
}

sub extras_build_system {
	my $forced = $ENV{DH_EXTRAS_BUILDSYSTEM};
	foreach my $row (@build_systems) {
		return $row if defined $forced and $forced eq $row->{name};
		next if defined $forced;
		return $row if grep { -e $_ } @{$row->{files}};
	}
	return;
}

my $ns = extras_namespace();
my $row = extras_build_system();
if (not $row) {
	print "dh-extras: no known build system: relying on relocation\n";
} elsif (not exists $row->{configure} and not exists $row->{build}) {
	print "dh-extras: the $row->{name} build system cannot be told the "
	    . "namespace: relying on relocation"
	    . ($row->{why} ? " ($row->{why})" : "") . "\n";
} else {
	print "dh-extras: $row->{name}: building for $ns, installing as usual\n"
	    unless $ENV{DH_QUIET};
	foreach my $step (qw(configure build)) {
		next unless exists $row->{$step};
		my @args = map { s/%NS%/$ns/gr } @{$row->{$step}};
		add_command_options("dh_auto_$step", '--', @args);
	}
}

# Back to usr/ whatever an install put under the namespace prefix.
insert_after('dh_auto_install', 'dh_extras_unprefix');

# Relocate once everything is installed, before dh_link makes links
# between final paths and dh_compress, dh_strip and dh_shlibdeps see the
# files where they will live.
insert_before('dh_link', 'dh_extras_relocate');

# dh_link makes the links of debian/PKG.links where the maintainer wrote
# them, outside the namespace: relocate those too.
insert_after('dh_link', 'dh_extras_links');

# The desktop integration that needs the final layout: schemas compiled
# where relocation put them, and seen by the exported entry points.
insert_after('dh_extras_relocate', 'dh_extras_gsettings');
insert_after('dh_extras_relocate', 'dh_extras_python');
insert_after('dh_extras_relocate', 'dh_extras_metainfo');

# Confine the app once its files have their final paths and modes
# (after dh_fixperms), before dh_installdeb turns the profile into a
# conffile and the snippets into maintainer scripts.
insert_before('dh_installdeb', 'dh_extras_apparmor');

# Ship the declaration the profile was generated from, so that the gate
# can generate it again and compare.
insert_after('dh_installdeb', 'dh_extras_declare');

# The review gate at build time, on the finished trees: refuse the build
# of what the store would refuse.
insert_before('dh_builddeb', 'dh_extras_check');

# Debug symbols would land in /usr/lib/debug, outside any namespace.
add_command_options('dh_strip', '--no-automatic-dbgsym');

1;
