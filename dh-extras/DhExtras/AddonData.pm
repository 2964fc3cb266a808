# dh-extras: the add-on's knowledge as data, for its Perl side.
#
# templates/addon/sequence (what the add-on changes in dh's sequence) and
# templates/addon/buildsystems (how each build system is told the
# namespace) are read here for Debian/Debhelper/Sequence/extras.pm,
# auto/dh_auto_step and auto/cmake, and by rewriter/dh/dh-addon.c for the
# commands, both the same way: lines of blank-separated words, "#" lines
# comments, a malformed line an error naming the file and the line.

package DhExtras::AddonData;

use strict;
use warnings;
use Exporter qw(import);

our @EXPORT_OK = qw(addon_datadir addon_sequence addon_buildsystems);

# $DH_EXTRAS_DATADIR when set and not empty (the uninstalled tree, for the
# tests), as the commands find it (rewriter/base/datadir.c), else the
# installed data directory ("make install" writes its own).
sub addon_datadir {
	my $dir = $ENV{DH_EXTRAS_DATADIR};
	return (defined $dir and $dir ne '') ? $dir : '/usr/share/dh-extras';
}

# The file templates/addon/NAME, and its lines with words, each
# [LINE, WORD...].
sub read_lines {
	my ($name) = @_;
	my $file = addon_datadir() . "/templates/addon/$name";
	open(my $fh, '<', $file) or die "dh-extras: $file: cannot open: $!\n";
	my @lines;
	while (my $line = <$fh>) {
		next if $line =~ /^\s*#/;
		my @words = split ' ', $line;
		push @lines, [$., @words] if @words;
	}
	close($fh);
	return ($file, @lines);
}

my $command = qr{^dh_[a-z0-9_]+$};
my $helper = qr{^dh_extras_[a-z0-9_]+$};

# The changes to dh's sequence, in order: [insert => HELPER,
# before|after => COMMAND], [option => COMMAND, OPTION...], [remove =>
# COMMAND].
sub addon_sequence {
	my ($file, @lines) = read_lines('sequence');
	my (@changes, %inserted);
	foreach my $line (@lines) {
		my ($n, $verb, @args) = @$line;
		my $bad = sub { die "dh-extras: $file:$n: $_[0]\n" };
		if ($verb eq 'insert') {
			my ($name, $where, $anchor) = @args;
			$bad->("not 'insert HELPER before|after COMMAND'")
			    unless @args == 3 and $where =~ /^(?:before|after)$/;
			$bad->("'$name' is not a dh_extras_* helper")
			    unless $name =~ $helper;
			$bad->("'$anchor' is not a dh command")
			    unless $anchor =~ $command;
			$bad->("$name is inserted twice") if $inserted{$name}++;
			$bad->("$anchor is not in the sequence yet")
			    if $anchor =~ $helper and not $inserted{$anchor};
		} elsif ($verb eq 'option') {
			$bad->("not 'option COMMAND OPTION...'")
			    unless @args >= 2 and $args[0] =~ $command;
			foreach my $option (@args[1 .. $#args]) {
				$bad->("'$option' is not an option")
				    unless $option =~ /^-/;
			}
		} elsif ($verb eq 'remove') {
			$bad->("not 'remove COMMAND'")
			    unless @args == 1 and $args[0] =~ $command;
		} else {
			$bad->("'$verb' is none of insert, option, remove");
		}
		push @changes, [$verb, @args];
	}
	return @changes;
}

my @steps = qw(configure build test install clean);

# { BUILDSYSTEM => { STEP => [PARAM...], detect => [FILE...],
# sources => [PATTERN...] } }; %NS% in a param stands for the namespace.
sub addon_buildsystems {
	my ($file, @lines) = read_lines('buildsystems');
	my %buildsystems;
	foreach my $line (@lines) {
		my ($n, $name, $key, @words) = @$line;
		my $bad = sub { die "dh-extras: $file:$n: $_[0]\n" };
		$bad->("not 'BUILDSYSTEM STEP|detect|sources WORD...'")
		    unless @words;
		$bad->("'$name' is not a build system's name")
		    unless $name =~ /^[a-z0-9_-]+$/;
		$bad->("'$key' is none of @steps, detect, sources")
		    unless grep { $_ eq $key } @steps, qw(detect sources);
		$bad->("a second '$name $key' line")
		    if $buildsystems{$name}{$key};
		foreach my $word (@words) {
			if ($key eq 'detect' or $key eq 'sources') {
				$bad->("'$word' is not "
				       . ($key eq 'detect' ? "a file's name"
				                           : 'a pattern of names'))
				    if $word =~ m{/};
			} else {
				$bad->("'$word' is not NAME=%NS% or NAME=%NS%/DIR")
				    unless $word =~ m{^[^=%]+=%NS%(?:/[^%]*)?$};
			}
		}
		$buildsystems{$name}{$key} = \@words;
	}
	return \%buildsystems;
}

1;
