package app

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: a release set at link time wins; then the module's
// version; then the commit, marked dirty when it had uncommitted changes;
// "devel" when the build recorded nothing.
func TestVersionOf(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "a3c7209f0e1d2c3b4a5968778695a4b3c2d1e0f9"
	tests := []struct {
		name, release string
		info          *debug.BuildInfo
		ok            bool
		want          string
	}{
		{"a release", "v1.2.0", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, true, "v1.2.0"},
		{"go install @version", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.1.0"}}, true, "v1.1.0"},
		{"a checkout's pseudo-version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261129093642-a3c7209f0e1d+dirty"}, Settings: vcs(rev, "true")},
			true, "v0.0.0-20261129093642-a3c7209f0e1d+dirty"},
		{"a commit", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, true, "devel-a3c7209f0e1d"},
		{"a commit with changes", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, true, "devel-a3c7209f0e1d-dirty"},
		{"-buildvcs=false", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{"no build information", "", nil, false, "devel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf(tt.release, tt.info, tt.ok); got != tt.want {
				t.Errorf("versionOf = %q, want %q", got, tt.want)
			}
		})
	}
}
