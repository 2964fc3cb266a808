#!/bin/sh
# qemu.sh VM_DIR PAYLOAD_IMAGE CONSOLE_LOG SECONDS: boot the VM that
# tests/confinement/image.sh built in VM_DIR with PAYLOAD_IMAGE as its
# second disk, AppArmor on; it runs the payload's boot.sh and powers off.
# The root image is opened with snapshot=on, so it stays as built.  Exit
# status: qemu's, 124 when it ran longer than SECONDS.
vm=$1 payload=$2 console=$3 secs=$4
# No KVM on the build machines: software emulation (TCG), 2 CPUs.
exec timeout -k 30 "$secs" nice qemu-system-x86_64 \
	-machine q35,accel=tcg -cpu max -smp 2 -m "${VM_MEMORY:-1536}" \
	-nographic -no-reboot -nic none \
	-kernel "$vm/vmlinuz" -initrd "$vm/initrd.img" \
	-append "root=/dev/vda rw console=ttyS0 loglevel=4 log_buf_len=8M apparmor=1 security=apparmor systemd.unit=dh-extras-test.target systemd.show_status=0" \
	-drive file="$vm/image.ext4",if=virtio,format=raw,snapshot=on \
	-drive file="$payload",if=virtio,format=raw \
	</dev/null >"$console" 2>&1
