package ws

import (
	"context"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/loadlens/loadlens/internal/protocol"
)

// message counts one message received: its gap, the first's time, its
// checks and until:. It reports whether the session is over.
func (s *session) message(now time.Time) bool {
	st := s.st.s
	f := &s.facts
	if f.MsgsReceived == 0 {
		f.FirstMsg = now.Sub(s.intended)
	} else {
		f.Gap(now.Sub(s.lastMsg))
	}
	f.MsgsReceived++
	s.lastMsg = now
	m := protocol.NewMessage(s.buf)
	for i := range st.Checks {
		if c := &st.Checks[i]; protocol.IsMessageCheck(c) {
			s.vu.Check(c.ID, now, m.Matches(c))
		}
	}
	if st.Until != nil && m.Matches(st.Until) {
		s.matched = true
		from := s.begin
		if at := s.lastSent.Load(); at != 0 {
			from = time.Unix(0, at)
		}
		f.Reply = now.Sub(from)
		return true
	}
	return st.MaxMessages > 0 && f.MsgsReceived >= int64(st.MaxMessages)
}

// checkHead judges the status and header checks on the handshake's response.
func (s *session) checkHead(resp *http.Response) {
	now := time.Now()
	for i := range s.st.s.Checks {
		if c := &s.st.s.Checks[i]; !protocol.IsMessageCheck(c) {
			s.vu.Check(c.ID, now, protocol.HeadMatches(c, resp.StatusCode, resp.Header))
		}
	}
}

// sendFirst sends every message once, in order, as the session opens.
func (s *session) sendFirst(ctx context.Context) error {
	for i := range s.st.s.Send {
		if err := s.send(ctx, i); err != nil {
			return err
		}
	}
	return nil
}

// send renders and sends message i. The scheduled sender calls it from its
// goroutine with its own buffer index, so the texts' buffers are per message.
func (s *session) send(ctx context.Context, i int) error {
	if len(s.text) < len(s.st.s.Send) {
		s.text = make([][]byte, len(s.st.s.Send))
	}
	s.text[i] = s.st.s.Send[i].Text.Render(s.text[i][:0], s.vu.Vars())
	if err := s.conn.Write(ctx, websocket.MessageText, s.text[i]); err != nil {
		return err
	}
	s.sent.Add(1)
	s.lastSent.Store(time.Now().UnixNano())
	return nil
}

// schedule starts the one goroutine that sends the every: messages, and
// returns what stops it (nil when there are none). It stops by itself
// when the session's context ends.
func (s *session) schedule(ctx context.Context) (stop func()) {
	var every []int
	for i, snd := range s.st.s.Send {
		if snd.Every > 0 {
			every = append(every, i)
		}
	}
	if len(every) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.sendEvery(ctx, every)
	}()
	return func() {
		cancel()
		<-done
	}
}

// sendEvery sends each message of every at its own period until ctx ends.
func (s *session) sendEvery(ctx context.Context, every []int) {
	next := make([]time.Time, len(every))
	for j, i := range every {
		next[j] = time.Now().Add(s.st.s.Send[i].Every)
	}
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		soonest := 0
		for j := range next {
			if next[j].Before(next[soonest]) {
				soonest = j
			}
		}
		t.Reset(time.Until(next[soonest]))
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if s.send(ctx, every[soonest]) != nil {
			return // the reader sees the connection's end
		}
		next[soonest] = next[soonest].Add(s.st.s.Send[every[soonest]].Every)
	}
}
