# Sourced by ./mvnw, ./autodisk and .ci/run: exports JAVA_HOME pointing at a JDK >= 21.
# Order: $JAVA_HOME, the `java` on PATH, then JDKs installed under /usr/lib/jvm, /opt and ~/.sdkman.
autodisk_java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1
}
autodisk_find_jdk() {
  local want=21 candidate major best="" best_major=0
  for candidate in ${JAVA_HOME:+"$JAVA_HOME"} \
      "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")" \
      /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/*; do
    [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(autodisk_java_major "$candidate/bin/java")
    case "$major" in ''|*[!0-9]*) continue ;; esac
    if [ "$major" -ge "$want" ] && [ "$major" -gt "$best_major" ]; then
      best="$candidate"; best_major="$major"
      [ "$candidate" = "${JAVA_HOME:-}" ] && break
    fi
  done
  if [ -z "$best" ]; then
    echo "AutoDisk needs a JDK >= $want; none found (looked at JAVA_HOME, PATH, /usr/lib/jvm, /opt)." >&2
    return 1
  fi
  export JAVA_HOME="$best"
}
autodisk_find_jdk
