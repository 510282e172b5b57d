package dist

import (
	"fmt"
	"runtime/debug"

	"github.com/loadlens/loadlens/internal/metrics"
)

// Build is which loadlens an agent or a coordinator is: the two must be the
// same build, since a `second` frame is the snapshot codec of the build that
// wrote it and a test is parsed on both sides into one layout. No skew is
// accepted, not even one release (N-1): as with k6's, Gatling's or JMeter's
// load generators, every machine runs the one version.
type Build struct {
	Version  string `json:"version"`            // the release, e.g. 0.1.0-dev (app.Version)
	Module   string `json:"module,omitempty"`   // the module's version go build stamped (go install …@v1.2.3); "" when none
	Revision string `json:"revision,omitempty"` // the VCS commit it was built from; "" when the build does not say
	Modified bool   `json:"modified,omitempty"` // built from a work tree with changes to that commit
	// Snapshot is the snapshot format it writes (metrics.SnapshotFormat):
	// two builds of one version without commits (-buildvcs=false, an image
	// built without .git) still differ by it when their seconds do; 0 for a
	// build from before it was sent.
	Snapshot int `json:"snapshot_format,omitempty"`
}

// ThisBuild is this binary's build: version, with the commit go build
// stamped into it when built from a git work tree (test binaries and builds
// without .git carry none).
func ThisBuild(version string) Build {
	b := Build{Version: version, Snapshot: metrics.SnapshotFormat}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if v := info.Main.Version; v != "(devel)" {
		b.Module = v
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// String names the build, e.g. "0.1.0-dev (commit 1a2b3c4d5e6f, modified)".
func (b Build) String() string {
	s := b.Version
	if s == "" {
		s = "an unknown version"
	}
	if b.Module != "" && b.Module != b.Version && "v"+b.Version != b.Module {
		s += " (module " + b.Module + ")"
	}
	if b.Revision != "" {
		rev := b.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " (commit " + rev
		if b.Modified {
			s += ", modified"
		}
		s += ")"
	}
	return s
}

// sameAs reports whether two builds understand each other: the same
// version, and the same module version and commit where both know theirs
// (a build without a commit, such as an image built without .git, is
// judged by the rest).
func (b Build) sameAs(o Build) bool {
	switch {
	case b.Version != o.Version, b.Snapshot != o.Snapshot:
		return false
	case b.Module != "" && o.Module != "" && b.Module != o.Module:
		return false
	}
	return b.Revision == "" || o.Revision == "" || b.Revision == o.Revision && b.Modified == o.Modified
}

// mismatch says why two builds cannot work together, naming both (with
// their snapshot formats when those differ) and what to do.
func mismatch(agent, coordinator Build) string {
	a, c := agent.String(), coordinator.String()
	if agent.Snapshot != coordinator.Snapshot {
		a += formatOf(agent.Snapshot)
		c += formatOf(coordinator.Snapshot)
	}
	return fmt.Sprintf("the agent is loadlens %s and the coordinator loadlens %s: run the same build on both sides "+
		"(the same release, image or commit; `loadlens version` names each): loadlens does not mix builds, not even one release apart", a, c)
}

// formatOf names a build's snapshot format for mismatch.
func formatOf(f int) string {
	if f == 0 {
		return " (a build from before snapshot formats were compared)"
	}
	return fmt.Sprintf(" (snapshot format %d)", f)
}
