//go:build !unix

package engine

import "net"

// smallReceiveBuffers leaves the buffers as they are where the socket
// option is not at hand: a write the client's buffers hold proves less.
func smallReceiveBuffers(*net.Dialer) {}
