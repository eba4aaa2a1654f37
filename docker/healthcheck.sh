#!/bin/sh
# Container health check: healthy when the node answers `status --check` on its own port: it serves and knows the
# cluster's ranges from the committed metadata (a node whose metadata replica has not caught up is unhealthy).
# The port is the one of AUTODISK_NODE_LISTEN (default 7400); a small, quick-starting JVM does the asking.
port="${AUTODISK_NODE_LISTEN:-0.0.0.0:7400}"
port="${port##*:}"
JAVA_OPTS="${AUTODISK_HEALTHCHECK_JAVA_OPTS:--Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto}" \
  exec /opt/autodisk/bin/entrypoint.sh status --check --seeds "127.0.0.1:${port:-7400}"
