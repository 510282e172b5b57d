# The loadlens image: one static binary on distroless, running as a non-root
# user. `loadlens k8s run` starts agents from it; any loadlens command runs
# in it too (docker run --rm ghcr.io/loadlens/loadlens:VERSION version).
#   docker build -t loadlens:dev .
# See docs/kubernetes.md.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO off: a static binary, which distroless/static (no libc) can run.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/loadlens ./cmd/loadlens

# distroless/static: CA certificates and tzdata, no shell or package manager;
# :nonroot runs as uid/gid 65532, the user the agents' pods require.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/loadlens /usr/local/bin/loadlens
USER 65532:65532
WORKDIR /home/nonroot
EXPOSE 6565
ENTRYPOINT ["/usr/local/bin/loadlens"]
CMD ["agent", "--once"]
