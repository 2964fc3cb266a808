#!/bin/sh
# image.sh DIR: build the VM of `make check-confinement` in DIR (outside
# the repository), unless DIR/stamp says it was built by this very script:
# a Debian 12 root made by mmdebstrap from the archive (kernel, AppArmor,
# systemd) turned into an ext4 image, with the kernel and initrd beside it.
#
# The image boots into dh-extras-test.target (systemd.unit= on the kernel
# command line): it mounts the second disk (/dev/vdb, the payload the
# runner makes) on /payload, runs /payload/boot.sh with its output on the
# serial console, and powers off, whatever happens.
#
# VM_EXTRA (packages separated by commas) adds packages to the image:
# `make corpus CONFINED=1` installs the corpus's runtime dependencies so
# that its apps run in a VM without network.
#
# Needs root (mmdebstrap --mode=root) and Debian's archive.
set -eu

dir=${1:?usage: image.sh DIR}
MIRROR=${VM_MIRROR:-http://deb.debian.org/debian}
SIZE=${VM_SIZE:-3G}
PACKAGES=linux-image-amd64,systemd-sysv,udev,kmod,apparmor,apparmor-utils,python3,procps,iproute2,e2fsprogs,fontconfig,fonts-dejavu-core${VM_EXTRA:+,$VM_EXTRA}

self=$(sha256sum "$0" | cut -d' ' -f1)
key="$self $MIRROR $SIZE $PACKAGES"
if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$key" ] &&
   [ -f "$dir/image.ext4" ] && [ -f "$dir/vmlinuz" ] && [ -f "$dir/initrd.img" ]; then
	exit 0
fi

mkdir -p "$dir"
rm -rf "$dir/root" "$dir/stamp" "$dir/image.ext4.new"
echo "image: mmdebstrap bookworm into $dir/root" >&2
timeout -k 30 1800 nice mmdebstrap --mode=root --variant=minbase \
	--include="$PACKAGES" \
	--customize-hook='echo dh-extras-vm >"$1/etc/hostname"' \
	--customize-hook='chroot "$1" passwd -d root' \
	--customize-hook='chroot "$1" useradd -m -s /bin/bash alice' \
	--customize-hook='mkdir -p "$1/payload"' \
	--customize-hook='cat >"$1/etc/systemd/system/dh-extras-test.target" <<UNIT
[Unit]
Description=dh-extras confinement tests
Requires=basic.target dh-extras-test.service
After=basic.target dh-extras-test.service
AllowIsolate=yes
UNIT' \
	--customize-hook='cat >"$1/etc/systemd/system/dh-extras-test.service" <<UNIT
[Unit]
Description=dh-extras confinement tests: run /payload/boot.sh, power off
After=basic.target apparmor.service
Wants=apparmor.service
[Service]
Type=oneshot
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
ExecStart=/bin/sh /usr/local/sbin/dh-extras-test
UNIT' \
	--customize-hook='cat >"$1/usr/local/sbin/dh-extras-test" <<SCRIPT
#!/bin/sh
# Run the tests of the payload disk, then power off whatever happened:
# the payload written back to its disk, the root left as it is.
# The payload may ask for longer than 25 minutes (payload/timeout).
mount /dev/vdb /payload &&
limit=\$(cat /payload/timeout 2>/dev/null || echo 1500) &&
timeout -k 10 "\$limit" sh /payload/boot.sh
sync
umount /payload || mount -o remount,ro /payload
sync
echo o >/proc/sysrq-trigger
SCRIPT' \
	--customize-hook='rm -f "$1/etc/machine-id"; : >"$1/etc/machine-id"' \
	--customize-hook='chroot "$1" apt-get clean' \
	bookworm "$dir/root" "$MIRROR"

cp -L "$dir/root/vmlinuz" "$dir/vmlinuz"
cp -L "$dir/root/initrd.img" "$dir/initrd.img"
echo "image: mkfs.ext4 -d into $dir/image.ext4 ($SIZE)" >&2
truncate -s "$SIZE" "$dir/image.ext4.new"
timeout 600 nice mkfs.ext4 -q -F -L root -d "$dir/root" "$dir/image.ext4.new"
mv "$dir/image.ext4.new" "$dir/image.ext4"
rm -rf "$dir/root"
echo "$key" >"$dir/stamp"
