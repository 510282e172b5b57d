package app

import "runtime/debug"

// release is the version a release build sets at link time, which wins
// over what the build recorded:
//
//	go build -ldflags "-X github.com/loadlens/loadlens/internal/app.release=v1.2.0" ./cmd/loadlens
var release string

// Version is loadlens's version: recorded in every run (run.db and
// summary.json), printed by `loadlens version`, and told to the other side
// of a distributed run. It is BuildVersion's, read once.
var Version = BuildVersion()

// BuildVersion returns the version of this build: the release set at link
// time; else the module's version when it was built as one (go install
// ...@v1.2.0, or a build in a checkout, whose version names the commit);
// else "devel", with the commit and "-dirty" for uncommitted changes where
// the build recorded them (not under -buildvcs=false).
func BuildVersion() string {
	info, ok := debug.ReadBuildInfo()
	return versionOf(release, info, ok)
}

// versionOf is BuildVersion's rule, given the link-time release and the
// build information.
func versionOf(release string, info *debug.BuildInfo, ok bool) string {
	if release != "" {
		return release
	}
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	v := "devel-" + rev[:min(len(rev), 12)]
	if dirty {
		v += "-dirty"
	}
	return v
}
