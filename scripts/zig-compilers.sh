# Sourced by the scripts that build with Zig (release-toolchain.sh, compile-macos.sh).
#   zig_compilers TOOLS BIN TARGET   makes TOOLS a venv with scripts/release-tools.txt (Zig
#                                    among them) and writes BIN/zig-cc, zig-c++ (compiling for
#                                    TARGET, a Zig triple such as x86_64-linux-gnu.2.28 or
#                                    aarch64-macos), zig-ar and zig-ranlib
zig_compilers() {
  local tools=$1 bin=$2 target=$3 zig tool
  [[ -x "$tools/bin/python" ]] || python3 -m venv "$tools"
  "$tools/bin/pip" install -q -r "$(dirname "${BASH_SOURCE[0]}")/release-tools.txt"
  zig="$("$tools/bin/python" -c 'import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')"
  mkdir -p "$bin"
  for tool in cc c++; do
    printf '#!/bin/sh\nexec "%s" %s -target %s "$@"\n' "$zig" "$tool" "$target" >"$bin/zig-$tool"
  done
  for tool in ar ranlib; do
    printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$zig" "$tool" >"$bin/zig-$tool"
  done
  chmod +x "$bin"/zig-*
}
