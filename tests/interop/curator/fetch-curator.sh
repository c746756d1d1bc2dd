#!/bin/sh
# Copies Curator 5.7.1 (curator-recipes and what it needs, from Maven Central)
# into DIR, for test_zk_mutex's Curator interop case:
#   tests/interop/curator/fetch-curator.sh DIR
#   cmake ... -DDLOCK_TEST_CURATOR_CLASSPATH='DIR/*'
set -eu
dir=${1:?usage: fetch-curator.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)  # Maven would take a relative one from the pom's folder
here=$(cd "$(dirname "$0")" && pwd)
mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$dir"
echo "Curator jars in $dir: configure with -DDLOCK_TEST_CURATOR_CLASSPATH='$dir/*'"
