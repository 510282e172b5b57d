package main

import (
	"bytes"
	"net"
	"sync/atomic"
	"time"
)

// answered counts the replies written, the requests of the runs.
var answered atomic.Int64

// reply is the fixed answer, the size of the bench's nginx reply.
const reply = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n" +
	"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"

// serve answers every request head on every connection ln accepts with
// reply, delay after it arrived, until ln is closed. Requests carry no
// body (the VUs send GETs).
func serve(ln net.Listener, delay time.Duration) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go answer(c, delay)
	}
}

// answer replies to each request head read from c, delay after it came,
// until c closes.
func answer(c net.Conn, delay time.Duration) {
	defer c.Close()
	buf := make([]byte, 4096)
	pending := 0 // bytes of a head not yet complete, at buf's start
	first := true
	for {
		n, err := c.Read(buf[pending:])
		if n == 0 || err != nil {
			return
		}
		data := buf[:pending+n]
		heads := bytes.Count(data, []byte("\r\n\r\n"))
		rest := data
		if heads > 0 {
			rest = data[bytes.LastIndex(data, []byte("\r\n\r\n"))+4:]
		}
		if len(rest) == len(buf) {
			return // a head larger than the buffer: not one of ours
		}
		pending = copy(buf, rest)
		for range heads {
			arrivals.note(first)
			first = false
		}
		if delay > 0 && heads > 0 {
			time.Sleep(delay) // a slow service: each VU has its own connection
		}
		for range heads {
			if _, err := c.Write([]byte(reply)); err != nil {
				return
			}
			answered.Add(1)
		}
	}
}
