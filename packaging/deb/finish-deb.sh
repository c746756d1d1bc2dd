#!/bin/sh
# Finishes a .deb that CPack made, for what CMake 3.25's CPack cannot say:
#  - the Multi-Arch field (same: libdlock1, libdlock-dev; foreign: dlock-tools);
#  - no postinst/postrm that only run ldconfig: the ldconfig trigger
#    (packaging/deb/triggers) already does it, and lintian warns about both.
# Usage: packaging/deb/finish-deb.sh PACKAGE.deb
set -eu
deb=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -R "$deb" "$work/root"
control="$work/root/DEBIAN/control"
case "$(sed -n 's/^Package: //p' "$control")" in
  libdlock[0-9]*|libdlock-dev) multiarch=same ;;
  *) multiarch=foreign ;;
esac
grep -q '^Multi-Arch:' "$control" || sed -i "/^Architecture:/a Multi-Arch: $multiarch" "$control"
for script in postinst postrm; do
  file="$work/root/DEBIAN/$script"
  # CPack's script is a shebang, an `if` on the action and ldconfig: nothing else.
  if [ -f "$file" ] && ! grep -v -E '^(#!/bin/sh|set -e|if \[ .*\]; then|fi|[[:space:]]*ldconfig|[[:space:]]*)$' "$file" | grep -q .; then
    rm "$file"
  fi
done
# md5sums stay valid: no file under the package's root changed.
dpkg-deb --root-owner-group -Zxz -b "$work/root" "$deb" >/dev/null
