#!/usr/bin/env bash
# Builds truthapp.jar and fetches the OpenTelemetry Java agent, both cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/loadlens-truth/ keyed by a hash of the sources and the pom.
# Prints  jar=/abs/path/truthapp.jar  and  agent=/abs/path/opentelemetry-javaagent-2.10.0.jar
# on stdout; Maven's output goes to stderr only when a build fails.
set -euo pipefail

AGENT_VERSION=2.10.0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/loadlens-truth

die() { echo "truthapp build: $*" >&2; exit 1; }
command -v java >/dev/null || die "java not found: install a JDK 17 (Debian: apt-get install -y openjdk-17-jdk-headless)"
command -v mvn >/dev/null || die "mvn not found: install Maven (Debian: apt-get install -y maven)"

# The key: every source file's path and content, the pom, and this script (it decides the build).
key=$(cd "$here" && { find pom.xml build.sh src -type f | LC_ALL=C sort | xargs sha256sum; } | sha256sum | cut -c1-16)
jar=$cache/truthapp-$key/truthapp.jar
agent=$cache/opentelemetry-javaagent-$AGENT_VERSION.jar
mkdir -p "$cache"

# Maven offline when ~/.m2 already has everything, else online (the first build downloads ~100 MB).
mvn_build() { # dir goal...
  local dir=$1 log; shift
  log=$(mktemp)
  if (cd "$dir" && mvn -B -q -o "$@") >"$log" 2>&1 || (cd "$dir" && mvn -B -q "$@") >"$log" 2>&1; then
    rm -f "$log"
  else
    cat "$log" >&2; rm -f "$log"
    die "mvn $* failed in $dir (output above)"
  fi
}

if [[ ! -s $jar || ! -s $agent ]]; then
  # One build at a time per cache: two harness runs may call this together.
  exec 9>"$cache/.lock"
  flock 9
  if [[ ! -s $jar || ! -s $agent ]]; then
    # Built in a scratch copy, so target/ never lands in the source tree and a half-built jar never in the cache.
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cp -r "$here/pom.xml" "$here/src" "$work/"
    if [[ ! -s $jar ]]; then
      echo "truthapp build: building $jar (first time: about 4 minutes with downloads)" >&2
      mvn_build "$work" -DskipTests package
      mkdir -p "$(dirname "$jar")"
      cp "$work/target/truthapp.jar" "$jar.tmp" && mv "$jar.tmp" "$jar"
      # Keep the three newest builds (about 75 MB each); older sources' jars are of no use.
      ls -1dt "$cache"/truthapp-*/ | tail -n +4 | xargs -r rm -rf
    fi
    if [[ ! -s $agent ]]; then
      mvn_build "$work" dependency:copy \
        -Dartifact=io.opentelemetry.javaagent:opentelemetry-javaagent:$AGENT_VERSION \
        -DoutputDirectory="$work/agent"
      cp "$work/agent/opentelemetry-javaagent-$AGENT_VERSION.jar" "$agent.tmp" && mv "$agent.tmp" "$agent"
    fi
  fi
fi

echo "jar=$jar"
echo "agent=$agent"
