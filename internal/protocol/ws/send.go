package ws

import (
	"context"
	"fmt"
	"time"

	"github.com/gorilla/websocket"

	"github.com/loadlens/loadlens/internal/plan"
)

// payload is one message's buffers: the template's output, and a binary
// payload's bytes decoded from it. The scheduled sender and the reader
// each send with their own, so neither waits for the other's.
type payload struct {
	text, bin []byte
}

// sendFirst sends every message once, in order, as the session opens.
func (s *session) sendFirst() error {
	for i := range s.st.s.Send {
		if err := s.send(i); err != nil {
			return err
		}
	}
	return nil
}

// send renders and sends message i. The scheduled sender calls it from its
// goroutine with its own buffer index, so the messages' buffers are per message.
func (s *session) send(i int) error {
	if len(s.out) < len(s.st.s.Send) {
		s.out = make([]payload, len(s.st.s.Send))
	}
	return s.write(&s.st.s.Send[i], &s.out[i])
}

// write renders snd into buf (decoding a templated binary payload) and
// sends it.
func (s *session) write(snd *plan.Send, buf *payload) error {
	s.varsMu.Lock() // a reply's extract: writes the variables the scheduled sender renders
	buf.text = snd.Text.Render(buf.text[:0], s.vu.Vars())
	s.varsMu.Unlock()
	data, typ := buf.text, websocket.TextMessage
	if snd.Binary {
		var err error
		if buf.bin, err = snd.Encoding.Decode(buf.bin[:0], buf.text); err != nil {
			return fmt.Errorf("%w: its %s as rendered (%.40q): %v", errPayload, snd.Encoding, buf.text, err)
		}
		data, typ = buf.bin, websocket.BinaryMessage
	}
	s.writeMu.Lock()
	err := s.conn.WriteMessage(typ, data)
	s.writeMu.Unlock()
	if err != nil {
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
		if s.send(every[soonest]) != nil {
			return // the reader sees the connection's end
		}
		next[soonest] = next[soonest].Add(s.st.s.Send[every[soonest]].Every)
	}
}
