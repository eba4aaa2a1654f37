#!/bin/sh
# Container entry point: runs org.autodisk.cli.Main with the flags the JDK in the image needs.
# Default command: `node` (configuration from AUTODISK_* environment variables, see docs/configuration.md);
# any other CLI command works too, e.g. `docker run --rm IMAGE status --seeds host:7400`.
# JAVA_OPTS adds JVM flags (heap size, GC, -Dautodisk.log.level=DEBUG).
set -eu
home=/opt/autodisk
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"

# The release file names the version without starting a JVM; fall back to asking the JVM.
major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$java_home/release" 2>/dev/null || true)
if [ -z "$major" ]; then
  major=$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1)
fi
flags="--enable-native-access=ALL-UNNAMED"
if [ "${major:-0}" -ge 24 ]; then
  flags="$flags --sun-misc-unsafe-memory-access=allow"
fi
# Containers come and go with new addresses: keep DNS answers for peers' names only briefly.
flags="$flags -Dsun.net.inetaddr.ttl=5 -Dsun.net.inetaddr.negative.ttl=1"

[ $# -gt 0 ] || set -- node
# shellcheck disable=SC2086
exec "$java_home/bin/java" $flags ${JAVA_OPTS:-} -cp "$home/app/*:$home/lib/*" org.autodisk.cli.Main "$@"
