#!/bin/sh
# Benchmark the store's pipeline: extras-store run on three signed
# uploads of convert-fixture.sh's greet (1.0, 1.1, 1.2), its wall time
# against the time their builds took (each report's unpack and build
# steps): what the pipeline adds to a build per upload (accept, convert,
# review, claim, publish, the registry and the reports), as a ratio.
set -eu

: "${TOP:?run through make bench}"
work=$(mktemp -d "${TMPDIR:-/tmp}/dh-extras-bench-store.XXXXXX")
GNUPGHOME=$work/gnupg
export GNUPGHOME
trap 'gpgconf --kill gpg-agent 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
mkdir -m 700 "$GNUPGHOME"
. "$TOP/tests/convert-fixture.sh"

now () { date +%s.%N; }
calc () { awk "BEGIN { printf \"%.6f\", $1 }"; }
fpr () {
	gpg --batch --with-colons --list-keys "$1@example.org" 2>/dev/null |
		awk -F: '/^fpr/ { print $10; exit }'
}

for who in alice store; do
	gpg --batch --passphrase '' --quick-gen-key "$who <$who@example.org>" \
		default default never 2>/dev/null
done
gpg --batch --export alice@example.org >uploaders.gpg
extras-store init -s store --registry registry --keyring uploaders.gpg \
	--sign-with "$(fpr store)" >/dev/null
extras-conflicts uploader add -d registry --fingerprint "$(fpr alice)" \
	alice >/dev/null

make_fixture greet >/dev/null
for v in 1.0 1.1 1.2; do
	rm -rf "greet-$v" && cp -a greet "greet-$v"
	sed -i "1s/(1.0)/($v)/" "greet-$v/debian/changelog"
	dpkg-source -b "greet-$v" >/dev/null 2>&1
	gpg --batch --yes --local-user alice@example.org --clearsign \
		-o "store/incoming/greet_$v.dsc" "greet_$v.dsc"
	cp "greet_$v.tar.xz" store/incoming/
done

t0=$(now)
extras-store run -q -s store
t1=$(now)
published=$(extras-store status -s store | grep -c '	published	')
[ "$published" = 3 ] || { echo "store: $published of 3 uploads published" >&2; exit 1; }

builds=$(python3 - store/reports/*.json <<'PY'
import json, sys
print(sum(s.get("seconds", 0) for f in sys.argv[1:]
          for s in json.load(open(f, encoding="utf-8"))["steps"]
          if s["step"] in ("unpack", "build")))
PY
)
total=$(calc "$t1 - $t0")
overhead=$(calc "($total - $builds) / 3")
build=$(calc "$builds / 3")
printf 'store: per upload: build %.2fs, pipeline overhead %.2fs, ratio %.3f (target <= 0.2)\n' \
	"$build" "$overhead" "$(calc "$overhead / $build")"
