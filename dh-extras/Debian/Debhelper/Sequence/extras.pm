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

# Where the helpers go, the options dh's own commands get and what dh no
# longer runs: templates/addon/sequence, which extras-convert writes
# into a debian/rules without dh too.  dh-extras(7) says why.
use DhExtras::AddonData qw(addon_sequence);
foreach my $change (addon_sequence()) {
	my ($verb, @args) = @$change;
	if ($verb eq 'insert') {
		my ($helper, $where, $command) = @args;
		if ($where eq 'before') {
			insert_before($command, $helper);
		} else {
			insert_after($command, $helper);
		}
	} elsif ($verb eq 'option') {
		add_command_options(@args);
	} else {
		remove_command(@args);
	}
}

1;
