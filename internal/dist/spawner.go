package dist

import (
	"os/exec"
	"runtime"
)

// spawner starts commands from one goroutine locked to its OS thread. A
// parent-death signal (Linux's Pdeathsig) fires when the thread that forked
// the child ends, not the process: forked from whatever thread a goroutine
// ran on, an agent could be killed when the Go runtime let that thread go.
// The thread ends with stop, after the agents.
type spawner struct {
	reqs chan spawnReq
}

type spawnReq struct {
	cmd *exec.Cmd
	err chan error
}

func newSpawner() *spawner {
	s := &spawner{reqs: make(chan spawnReq)}
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine, once the agents are gone
		for r := range s.reqs {
			r.err <- r.cmd.Start()
		}
	}()
	return s
}

// start starts cmd from the spawner's thread.
func (s *spawner) start(cmd *exec.Cmd) error {
	err := make(chan error, 1)
	s.reqs <- spawnReq{cmd: cmd, err: err}
	return <-err
}

// stop ends the spawner's thread; the agents it started must be gone.
func (s *spawner) stop() {
	if s.reqs != nil {
		close(s.reqs)
		s.reqs = nil
	}
}
