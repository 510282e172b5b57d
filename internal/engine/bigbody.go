package engine

import (
	"sync"

	"github.com/loadlens/loadlens/internal/engine/h1"
	"github.com/loadlens/loadlens/internal/plan"
)

// sharedBodies holds one copy of each constant request body larger than
// h1.InlineBodyMax, for every VU to send: a copy per VU was O(VUs) bodies
// (100 VUs uploading a 64 MiB body_file held 6.4 GB).
type sharedBodies struct {
	m  sync.Map   // *plan.Request → []byte, never written to once stored
	mu sync.Mutex // serializes making one, so VUs starting together make one copy
}

// get returns r's body, made from s the first time.
func (b *sharedBodies) get(r *plan.Request, s string) []byte {
	if v, ok := b.m.Load(r); ok {
		return v.([]byte)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if v, ok := b.m.Load(r); ok {
		return v.([]byte)
	}
	body := []byte(s)
	b.m.Store(r, body)
	return body
}

// renderBody returns the body r sends: a large constant one shared by
// every VU, any other rendered into the VU's buffer.
func (v *vu) renderBody(r *plan.Request) []byte {
	h := v.http
	h.body = h.body[:0]
	if r.Body == nil {
		return h.body
	}
	if s, ok := r.Body.Const(); ok && len(s) > h1.InlineBodyMax {
		return v.sc.e.bodies.get(r, s)
	}
	h.body = r.Body.Render(h.body, &v.tc)
	return h.body
}

// releaseBody drops a rendered body larger than h1.InlineBodyMax once its
// request is over, and the lean client's references to it, so that a VU
// thinking or waiting holds none: what is held is the bodies of the
// requests in flight. (net/http's body reader keeps its reference: its
// transport may still be reading it.)
func (h *httpState) releaseBody() {
	if cap(h.body) > h1.InlineBodyMax {
		h.body, h.hop.body, h.resp.lean.req.Body = nil, nil, nil
	}
}
