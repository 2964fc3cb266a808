#!/bin/sh
# boot.sh: what the VM of `make check-confinement` runs at boot, from the
# payload disk mounted on /payload (dh-extras-test.service of the image):
# the TAP tests of confinement.t, their output kept in /payload/tap.out
# for the runner and shown on the console.
cd /payload || exit 1
# Every DENIED line must reach the kernel log: no printk rate limit.
sysctl -q -w kernel.printk_ratelimit=0
echo "dh-extras: confinement tests start"
TOP=/payload BUILDDIR=/payload DEBS=/payload/debs \
	timeout -k 10 "${TEST_TIMEOUT:-900}" sh /payload/tests/confinement/confinement.t \
	>/payload/tap.out 2>/payload/stderr.out
echo "exit=$?" >/payload/status
cat /payload/tap.out /payload/stderr.out
dmesg >/payload/dmesg.out
echo "dh-extras: confinement tests done ($(cat /payload/status))"
