#!/usr/bin/env bash
# Builds a Java runtime base image for the AutoDisk node image without any image registry:
#   1. debootstrap --variant=minbase a Debian root file system (the suite and mirror the host's apt uses),
#   2. jlink a runtime from the local JDK (the one ./mvnw uses) into /opt/java/openjdk,
#   3. docker import the result as autodisk/jre-base:local (JAVA_HOME and PATH set as in eclipse-temurin).
#
# Use it on hosts that cannot pull eclipse-temurin:21-jre (no registry reachable, like CI here); then build the
# node image with --build-arg BASE_IMAGE=autodisk/jre-base:local. Hosts with a registry need none of this.
# Needs root (debootstrap), docker, debootstrap and access to the host's Debian package mirror.
#
# Usage: docker/build-base-image.sh [--force] [--image NAME] [--suite SUITE] [--mirror URL]
#   --force     rebuild even if the image exists (without it an existing image is kept: idempotent)
#   --image     tag to create (default: autodisk/jre-base:local, or $AUTODISK_BASE_IMAGE_TAG)
#   --suite     Debian suite (default: the host's VERSION_CODENAME if Debian, else bookworm)
#   --mirror    Debian mirror (default: the first one in the host's apt sources, else deb.debian.org)
# Environment: JRE_MODULES overrides the jlinked module list (comma-separated).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"

image="${AUTODISK_BASE_IMAGE_TAG:-autodisk/jre-base:local}"
force=0
suite=""
mirror=""
# jdeps --print-module-deps over the node's jars gives java.base,java.desktop,java.naming,java.sql,jdk.jfr,
# jdk.management,jdk.unsupported; the rest are cheap insurance (logging, XML, crypto, zip file systems, charsets).
modules="${JRE_MODULES:-java.base,java.desktop,java.logging,java.management,java.naming,java.net.http,java.sql,\
java.xml,jdk.charsets,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.net,jdk.unsupported,jdk.zipfs}"

while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=1 ;;
    --image) image="$2"; shift ;;
    --suite) suite="$2"; shift ;;
    --mirror) mirror="$2"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "build-base-image: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

log() { echo "build-base-image: $*" >&2; }

if [ "$force" = 0 ] && docker image inspect "$image" >/dev/null 2>&1; then
  log "$image exists; nothing to do (use --force to rebuild)"
  exit 0
fi
for tool in docker debootstrap; do
  command -v "$tool" >/dev/null || { log "needs '$tool' (Debian: apt-get install -y docker.io debootstrap)"; exit 2; }
done
if [ "$(id -u)" != 0 ]; then
  log "debootstrap needs root: run with sudo"
  exit 2
fi

if [ -z "$suite" ]; then
  suite=$( (. /etc/os-release 2>/dev/null && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}") || true)
  suite="${suite:-bookworm}"
fi
if [ -z "$mirror" ]; then
  mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | grep -v -- '-security' | head -n 1 || true)
  if [ -z "$mirror" ]; then
    mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\).*/\2/p' /etc/apt/sources.list 2>/dev/null \
      | grep -v -- '-security' | head -n 1 || true)
  fi
  mirror="${mirror:-http://deb.debian.org/debian}"
fi

. "$root/.mvn/find-jdk.sh"
jlink="$JAVA_HOME/bin/jlink"
[ -x "$jlink" ] || { log "no jlink in $JAVA_HOME (a JDK, not a JRE, is needed)"; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/autodisk-base.XXXXXX")
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

old_id=$(docker image inspect -f '{{.Id}}' "$image" 2>/dev/null || true)
start=$(date +%s)
log "debootstrap --variant=minbase $suite from $mirror ..."
if ! debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
  tail -n 20 "$work/debootstrap.log" >&2
  log "debootstrap failed"
  exit 1
fi
# what a runtime image does not need: package lists and caches, documentation, translations
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/var/cache/debconf/*-old \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
  "$rootfs"/var/log/* "$rootfs"/tmp/*

log "jlink from $JAVA_HOME: $modules"
mkdir -p "$rootfs/opt/java"
"$jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --generate-cds-archive \
  --output "$rootfs/opt/java/openjdk" >"$work/jlink.log" 2>&1 || { cat "$work/jlink.log" >&2; exit 1; }
version=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$rootfs/opt/java/openjdk/release")

log "docker import as $image (Java $version)"
tar -C "$rootfs" -c . | docker import \
  -c 'ENV JAVA_HOME=/opt/java/openjdk' \
  -c 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  -c 'ENV LANG=C.UTF-8' \
  -c "LABEL org.autodisk.base.suite=$suite org.autodisk.base.java=$version" \
  -c 'CMD ["java", "-version"]' \
  -m "AutoDisk JRE base: Debian $suite minbase + jlinked Java $version" - "$image" >/dev/null

check=$(docker run --rm "$image" java -version 2>&1) || { echo "$check" >&2; log "$image does not run java"; exit 1; }
log "check: $(echo "$check" | head -n 1)"
new_id=$(docker image inspect -f '{{.Id}}' "$image")
if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then
  docker image rm "$old_id" >/dev/null 2>&1 || true     # the replaced image, unless a container still uses it
fi
log "built $image in $(( $(date +%s) - start )) s ($(docker image inspect -f '{{.Size}}' "$image" \
  | awk '{printf "%.0f MB", $1 / 1e6}'))"
