# Sourced (POSIX sh) by mvnw, ./cascade and .ci/run, so all three find the same JDK the same way.
# cascade_use_jdk: exports JAVA_HOME as the first JDK 21+ in JAVA_HOME, on PATH, then under
# /usr/lib/jvm (JDK_SEARCH_ROOT overrides that folder, for tests), or says none was found and
# fails. On a JDK that knows it (23+), it also lets Maven's own libraries use sun.misc.Unsafe, so
# a newcomer's first build prints no JVM warnings that say nothing about Cascade.

cascade_java_major() { # the feature version of the java binary $1, or nothing
  # The JDK's release file says it without starting a JVM (which costs a short command ~0.1 s).
  cascade_release="${1%/bin/java}/release"
  if [ "$cascade_release" != "$1" ] && [ -f "$cascade_release" ]; then
    cascade_release_major="$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$cascade_release" | head -n1)"
    case "$cascade_release_major" in
      1) ;; # 1.8.0 and older: ask the JVM below
      [0-9]*) echo "$cascade_release_major"; return 0 ;;
    esac
  fi
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n1
}

cascade_find_jdk() { # prints the first candidate with java and javac 21+
  cascade_path_jdk=""
  if command -v javac >/dev/null 2>&1; then
    cascade_path_jdk="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  fi
  cascade_noglob=""
  case $- in *f*) cascade_noglob=1 ;; esac
  set +f
  for cascade_dir in "${JAVA_HOME:-}" "$cascade_path_jdk" "${JDK_SEARCH_ROOT:-/usr/lib/jvm}"/*/; do
    cascade_dir="${cascade_dir%/}"
    [ -n "$cascade_dir" ] && [ -x "$cascade_dir/bin/java" ] && [ -x "$cascade_dir/bin/javac" ] || continue
    cascade_major="$(cascade_java_major "$cascade_dir/bin/java")"
    if [ -n "$cascade_major" ] && [ "$cascade_major" -ge 21 ]; then
      [ -n "$cascade_noglob" ] && set -f
      echo "$cascade_dir"
      return 0
    fi
  done
  [ -n "$cascade_noglob" ] && set -f
  return 1
}

cascade_use_jdk() { # $1: the name to sign messages with
  if ! cascade_jdk="$(cascade_find_jdk)"; then
    echo "$1: needs a JDK 21 or newer; none found in JAVA_HOME, on PATH or under ${JDK_SEARCH_ROOT:-/usr/lib/jvm}." >&2
    echo "$1: install one (for example 'apt-get install openjdk-21-jdk') or set JAVA_HOME." >&2
    return 1
  fi
  JAVA_HOME="$cascade_jdk"
  export JAVA_HOME
  if [ "$(cascade_java_major "$JAVA_HOME/bin/java")" -ge 23 ]; then
    case " ${MAVEN_OPTS:-} " in
      *" --sun-misc-unsafe-memory-access="*) ;;
      *) MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }--sun-misc-unsafe-memory-access=allow"; export MAVEN_OPTS ;;
    esac
  fi
}
