# Sourced by bin/weft, bin/weft-bench and .ci/run: sets JAVA_HOME to a JDK of version 21 or newer.
# Order: JAVA_HOME, the java on the PATH, then /usr/lib/jvm/* (newest first).

weft_java_major() {
  # Prints the feature version of the java binary given, or nothing.
  "$1" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

weft_find_jdk() {
  local candidate major
  for candidate in ${JAVA_HOME:+"$JAVA_HOME"} \
      "$(command -v java >/dev/null 2>&1 && dirname "$(dirname "$(readlink -f "$(command -v java)")")")" \
      $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    candidate="${candidate%/}"
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major="$(weft_java_major "$candidate/bin/java")"
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then
      export JAVA_HOME="$candidate"
      WEFT_JAVA_MAJOR="$major"
      if [ "$major" -ge 24 ]; then
        # Maven's Guice and CEL's protobuf still use sun.misc.Unsafe; JDK 24+ warns about it on every run.
        case "${MAVEN_OPTS:-}" in *sun-misc-unsafe*) ;; *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;; esac
      fi
      return 0
    fi
  done
  echo "weft: no JDK 21 or newer found (looked at JAVA_HOME, java on the PATH and /usr/lib/jvm)." >&2
  echo "weft: install one, e.g. 'apt-get install openjdk-21-jdk' or Temurin 21+, or set JAVA_HOME to it." >&2
  return 1
}
