# shellcheck shell=bash
# Installs the peer load generators by package name, cached under $TOOLS (bench/out/tools).
# Sourced by bench/run.sh. A peer that cannot be installed is marked "skipped" in
# $TOOLS/status.tsv with the reason, instead of failing the whole run.

# Versions: pinned so two runs measure the same peers; override from the environment.
: "${OHA_VERSION:=1.16.0}"       # crates.io; builds with the Rust here (rust-version 1.88)
: "${K6_VERSION:=v1.8.1}"        # go.k6.io/k6 as the Go module proxy serves it
: "${VEGETA_VERSION:=v12.13.0}"  # github.com/tsenart/vegeta/v12
: "${HEY_VERSION:=v0.1.5}"       # github.com/rakyll/hey (= @latest; unchanged since 2020)
: "${GHZ_VERSION:=v0.121.0}"     # github.com/bojand/ghz (the gRPC peer of bench/proto.sh)

# status_set TOOL ok|skipped NOTE records the outcome of one install.
status_set() {
  local tool=$1 state=$2 note=$3
  grep -v "^$tool	" "$TOOLS/status.tsv" >"$TOOLS/status.tsv.new" 2>/dev/null || true
  printf '%s\t%s\t%s\n' "$tool" "$state" "$note" >>"$TOOLS/status.tsv.new"
  mv "$TOOLS/status.tsv.new" "$TOOLS/status.tsv"
}

# tool_ok TOOL succeeds when TOOL installed.
tool_ok() { grep -q "^$1	ok	" "$TOOLS/status.tsv" 2>/dev/null; }

# as_root runs a command as root (directly, or through sudo when there is one).
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root for: $*" >&2; return 1; fi
}

# install_apt installs the Debian packages that are missing, one by one so one failure
# does not block the others.
install_apt() {
  local need=() pkg
  command -v wrk >/dev/null || need+=(wrk)
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
  [ -x /usr/bin/time ] || need+=(time)
  command -v taskset >/dev/null || need+=(util-linux)
  command -v jq >/dev/null || need+=(jq)
  command -v curl >/dev/null || need+=(curl)
  command -v git >/dev/null || need+=(git)
  if [ ${#need[@]} -gt 0 ]; then
    log "apt-get install ${need[*]}"
    as_root apt-get update >"$TOOLS/logs/apt-update.log" 2>&1 || true
    for pkg in "${need[@]}"; do
      DEBIAN_FRONTEND=noninteractive as_root apt-get install -y --no-install-recommends "$pkg" \
        >>"$TOOLS/logs/apt-install.log" 2>&1 || log "apt-get install $pkg failed (see $TOOLS/logs/apt-install.log)"
    done
  fi
  # nginx-light's package starts the system service; the benchmark runs its own instance.
  if command -v wrk >/dev/null; then status_set wrk ok "Debian package wrk"
  else status_set wrk skipped "apt-get install wrk failed"; fi
}

# go_mod_version BIN MODULE prints the version of MODULE built into the Go binary BIN.
go_mod_version() {
  go version -m "$1" 2>/dev/null | awk -v m="$2" '($1=="mod"||$1=="dep") && $2==m {print $3; exit}'
}

# install_go_tool NAME MODULE VERSION [PACKAGE] installs a Go command (PACKAGE, by default the
# module's root) with go install, unless the cached binary already has that version.
install_go_tool() {
  local name=$1 module=$2 version=$3 pkg=${4:-$2}
  if [ -x "$TOOLS/bin/$name" ] && [ "$(go_mod_version "$TOOLS/bin/$name" "$module")" = "$version" ]; then
    status_set "$name" ok "go install $module@$version (cached)"; return
  fi
  log "go install $pkg@$version"
  if GOBIN="$TOOLS/bin" GOFLAGS=-modcacherw go install "$pkg@$version" >"$TOOLS/logs/$name.log" 2>&1; then
    status_set "$name" ok "go install $pkg@$version"
  else
    status_set "$name" skipped "go install $pkg@$version failed: $(tail -1 "$TOOLS/logs/$name.log")"
  fi
}

# install_vegeta builds vegeta v12 inside a throw-away module: go install refuses a module
# whose go.mod has replace directives, and vegeta's has.
install_vegeta() {
  local module=github.com/tsenart/vegeta/v12 mod="$TOOLS/vegeta-mod"
  if [ -x "$TOOLS/bin/vegeta" ] && [ "$(go_mod_version "$TOOLS/bin/vegeta" "$module")" = "$VEGETA_VERSION" ]; then
    status_set vegeta ok "go build $module@$VEGETA_VERSION in a throw-away module (cached)"; return
  fi
  log "go build $module@$VEGETA_VERSION"
  rm -rf "$mod" && mkdir -p "$mod"
  if (cd "$mod" && go mod init bench.invalid/vegeta &&
      GOFLAGS="-mod=mod -modcacherw" go get "$module@$VEGETA_VERSION" &&
      GOFLAGS="-mod=mod -modcacherw" go build -ldflags "-X main.Version=$VEGETA_VERSION" \
        -o "$TOOLS/bin/vegeta" "$module") >"$TOOLS/logs/vegeta.log" 2>&1; then
    status_set vegeta ok "go build $module@$VEGETA_VERSION in a throw-away module"
  else
    status_set vegeta skipped "go build $module@$VEGETA_VERSION failed: $(tail -1 "$TOOLS/logs/vegeta.log")"
  fi
}

# install_oha builds oha from crates.io with cargo install (--locked first, then without).
install_oha() {
  local bin="$TOOLS/oha/bin/oha"
  if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q " $OHA_VERSION\$"; then
    status_set oha ok "cargo install oha --version $OHA_VERSION (cached)"; return
  fi
  if ! command -v cargo >/dev/null; then status_set oha skipped "no cargo on PATH"; return; fi
  log "cargo install oha --version $OHA_VERSION (a few minutes)"
  if cargo install oha --version "$OHA_VERSION" --locked --root "$TOOLS/oha" >"$TOOLS/logs/oha.log" 2>&1 ||
     cargo install oha --version "$OHA_VERSION" --root "$TOOLS/oha" >>"$TOOLS/logs/oha.log" 2>&1; then
    status_set oha ok "cargo install oha --version $OHA_VERSION"
  else
    status_set oha skipped "cargo install oha --version $OHA_VERSION failed: $(grep -m1 '^error' "$TOOLS/logs/oha.log")"
  fi
}

# install_peers installs everything the benchmark runs.
install_peers() {
  mkdir -p "$TOOLS/bin" "$TOOLS/logs"
  touch "$TOOLS/status.tsv"
  install_apt
  for need in nginx /usr/bin/time taskset jq curl timeout; do
    command -v "$need" >/dev/null || [ -x "/usr/sbin/$need" ] || die "missing $need after apt-get install"
  done
  if command -v go >/dev/null; then
    install_go_tool hey github.com/rakyll/hey "$HEY_VERSION"
    install_go_tool k6 go.k6.io/k6 "$K6_VERSION"
    install_vegeta
  else
    for t in hey k6 vegeta; do status_set "$t" skipped "no go on PATH"; done
  fi
  install_oha
  ln -sf "$TOOLS/oha/bin/oha" "$TOOLS/bin/oha" 2>/dev/null || true
}

# install_proto_peers installs what bench/proto.sh measures beside loadlens: k6 (its
# k6/net/grpc and k6/experimental/websockets are built in), ghz, and Debian's h2load and
# nghttpd. Each that fails is "skipped", as above.
install_proto_peers() {
  mkdir -p "$TOOLS/bin" "$TOOLS/logs"
  touch "$TOOLS/status.tsv"
  local pkg
  for pkg in nghttp2-client:h2load nghttp2-server:nghttpd; do
    command -v "${pkg#*:}" >/dev/null && continue
    log "apt-get install ${pkg%%:*}"
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y --no-install-recommends "${pkg%%:*}" \
      >>"$TOOLS/logs/apt-install.log" 2>&1 || log "apt-get install ${pkg%%:*} failed (see $TOOLS/logs/apt-install.log)"
  done
  if command -v h2load >/dev/null; then status_set h2load ok "Debian package nghttp2-client"
  else status_set h2load skipped "apt-get install nghttp2-client failed"; fi
  if command -v nghttpd >/dev/null; then status_set nghttpd ok "Debian package nghttp2-server"
  else status_set nghttpd skipped "apt-get install nghttp2-server failed"; fi
  if command -v go >/dev/null; then
    install_go_tool k6 go.k6.io/k6 "$K6_VERSION"
    install_go_tool ghz github.com/bojand/ghz "$GHZ_VERSION" github.com/bojand/ghz/cmd/ghz
  else
    for t in k6 ghz; do status_set "$t" skipped "no go on PATH"; done
  fi
}
