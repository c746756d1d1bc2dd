# Sourced by the package checks: throwaway redis-servers on free loopback ports
# in WORK (which the caller removes), plain and TLS (certificates made here).
#   start_plain_redis WORK   sets plain_port, plain_redis_pid
#   start_tls_redis WORK     sets tls_port, tls_ca, tls_redis_pid
# The caller kills the pids it got.

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_plain_redis() {
  plain_port=$(free_port)
  redis-server --port "$plain_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$1" >/dev/null &
  plain_redis_pid=$!
  until redis-cli -p "$plain_port" ping >/dev/null 2>&1; do sleep 0.05; done
}

start_tls_redis() {
  (
    cd "$1"
    tls_key="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
    openssl req -x509 $tls_key -days 1 -subj /CN=check-ca -keyout ca.key -out ca.crt 2>/dev/null
    openssl req $tls_key -subj /CN=localhost -keyout server.key -out server.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >server.ext
    openssl x509 -req -days 1 -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -extfile server.ext -out server.crt 2>/dev/null
  )
  tls_ca="$1/ca.crt"
  tls_port=$(free_port)
  redis-server --port 0 --tls-port "$tls_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$1" \
    --tls-cert-file "$1/server.crt" --tls-key-file "$1/server.key" --tls-ca-cert-file "$tls_ca" \
    --tls-auth-clients no >/dev/null &
  tls_redis_pid=$!
  until redis-cli --tls --cacert "$tls_ca" -p "$tls_port" ping >/dev/null 2>&1; do sleep 0.05; done
}
