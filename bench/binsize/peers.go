package main

import "os/exec"

// peer is another tool whose start-up is measured beside loadlens's.
type peer struct {
	Name string
	Argv []string
	Size int64
	Time timing
}

// peers lists k6 and oha when they are on the PATH.
func peers() []peer {
	var out []peer
	for _, p := range []peer{{Name: "k6", Argv: []string{"k6", "version"}}, {Name: "oha", Argv: []string{"oha", "--version"}}} {
		path, err := exec.LookPath(p.Argv[0])
		if err != nil {
			continue
		}
		p.Argv[0] = path
		p.Size = fileSize(path)
		out = append(out, p)
	}
	return out
}
