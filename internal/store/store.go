// Package store keeps a run in run.db, an SQLite file: the run's metadata
// and test, one binary snapshot per second, the same seconds as plain
// per-endpoint rows for people with the sqlite3 CLI, the generator's own
// CPU per second, and how the run ended.
// Every second is its own transaction in WAL mode, so a run killed with
// SIGKILL loses at most the second being written.
package store

import (
	"net/url"
	"strings"
	"time"

	// The pure-Go SQLite driver, registered as "sqlite".
	_ "modernc.org/sqlite"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/threshold"
)

// SchemaVersion is the version of the run.db layout this build writes; it
// reads this version and older ones. Version 2 added the truncated column
// of endpoint_seconds, the reason column of thresholds, and snapshots of
// format 2 (with truncated bodies). Version 3 added the redirects and
// started_before_ms columns of endpoint_seconds, snapshots of format 3
// (with both), and the run's notices (the meta row "notices"). Version 4
// has snapshots of format 4: each endpoint's span of intended starts and
// each scenario's arrivals offered, which an earlier build cannot read.
const SchemaVersion = 4

// Meta describes a run: who ran what, where and when.
type Meta struct {
	ID, Name, Version, Host string
	CPUs                    int
	Start                   time.Time
	Args                    []string
	TestFile                string // the test file's path
	TestSource              []byte // the test file's text
	Layout                  sample.Layout
	Extra                   map[string]string // further meta keys; must not reuse the keys above
}

// Finish is how a run ended.
type Finish struct {
	End        time.Time
	Status     string // "completed", "aborted", "interrupted", "failed" or "incomplete"
	Elapsed    time.Duration
	ExitCode   int
	Thresholds []threshold.Result
	// Notices is what the run said that its figures do not say again (an
	// abort, the generator holding its pool, a failed scrape), in order,
	// so that a summary rebuilt from run.db prints them as the run did.
	Notices []string
	// NoticesKept is true when the file keeps Notices (schema version 3
	// on); a reader of an older file must rebuild what it can.
	NoticesKept bool
	// Meta is meta keys known only at the end, e.g. a distributed run's
	// per-agent table; they read back in Meta.Extra.
	Meta map[string]string
}

// The meta keys Meta's fields are stored under.
const (
	keySchemaVersion = "schema_version"
	keyID            = "id"
	keyName          = "name"
	keyVersion       = "version"
	keyHost          = "host"
	keyCPUs          = "cpus"
	keyStart         = "start"
	keyArgs          = "args"
	keyTestFile      = "test_file"
	keyLayout        = "layout"
	keyNotices       = "notices" // written by Finish
)

// reserved reports whether a meta key stores a Meta field, so that Extra
// may not use it.
func reserved(key string) bool {
	switch key {
	case keySchemaVersion, keyID, keyName, keyVersion, keyHost, keyCPUs, keyStart, keyArgs, keyTestFile, keyLayout, keyNotices:
		return true
	}
	return false
}

// schema creates the tables of SchemaVersion. Times are RFC 3339 text and
// durations nanoseconds, so the file reads well in the sqlite3 CLI.
const schema = `
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE test (
	path   TEXT NOT NULL,
	source TEXT NOT NULL
);
CREATE TABLE seconds (
	sec      INTEGER PRIMARY KEY,
	snapshot BLOB NOT NULL
);
CREATE TABLE endpoint_seconds (
	sec            INTEGER NOT NULL,
	endpoint       INTEGER NOT NULL,
	scenario       TEXT NOT NULL,
	endpoint_name  TEXT NOT NULL,
	requests       INTEGER NOT NULL,
	failed         INTEGER NOT NULL,
	truncated      INTEGER NOT NULL,
	redirects      INTEGER NOT NULL,
	bytes_sent     INTEGER NOT NULL,
	bytes_received INTEGER NOT NULL,
	p50_ms         REAL NOT NULL,
	p95_ms         REAL NOT NULL,
	p99_ms         REAL NOT NULL,
	max_ms         REAL NOT NULL,
	started_before_ms REAL NOT NULL,
	PRIMARY KEY (sec, endpoint)
);
CREATE TABLE thresholds (
	key      TEXT NOT NULL,
	expr     TEXT NOT NULL,
	observed REAL NOT NULL,
	has_data INTEGER NOT NULL,
	pass     INTEGER NOT NULL,
	aborted  INTEGER NOT NULL,
	reason   TEXT NOT NULL
);
CREATE TABLE finish (
	end_time   TEXT NOT NULL,
	status     TEXT NOT NULL,
	elapsed_ns INTEGER NOT NULL,
	exit_code  INTEGER NOT NULL
);
`

// fileDSN returns the driver name of a database file with SQLite URI
// parameters. The driver splits the name at the first '?', and SQLite
// decodes %XX escapes in file: URIs, so those characters are escaped.
func fileDSN(path string, params url.Values) string {
	escaped := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
	return "file:" + escaped + "?" + params.Encode()
}
