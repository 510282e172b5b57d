package h1

// aside runs f on a goroutine of its own and waits for it. Dialling takes
// 8 KiB of stack and a TLS handshake more, while a reused connection's
// exchange fits in 4: made on the caller's goroutine, a VU's, the stack
// would stay that large for the VU's life, since stacks shrink only in a
// collection and a run of many VUs rarely has one (docs/generator.md,
// "What an idle VU costs"). A connection is made far less often than a
// request is sent, and the goroutine's stack is reused by the next.
func aside(f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	return <-done
}
