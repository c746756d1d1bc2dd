"""TLS: a lock taken over rediss:// with the keyword arguments, against a TLS-only
redis-server whose certificates openssl makes here. Skipped only when the build has no TLS."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Iterator

import pytest
from redis_server import RedisServer, ServerTls

import dlock

_NEW_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]


def _openssl(directory: Path, *args: str) -> None:
    subprocess.run(["openssl", *args], cwd=directory, check=True, capture_output=True)


def _certificates(directory: Path) -> ServerTls:
    """A CA and a server certificate it signed for 127.0.0.1 and localhost."""
    _openssl(directory, "req", "-x509", *_NEW_KEY, "-days", "1", "-subj", "/CN=dlock-test-ca",
             "-keyout", "ca.key", "-out", "ca.crt")
    _openssl(directory, "req", *_NEW_KEY, "-subj", "/CN=localhost", "-keyout", "server.key",
             "-out", "server.csr")
    (directory / "server.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _openssl(directory, "x509", "-req", "-days", "1", "-in", "server.csr", "-CA", "ca.crt",
             "-CAkey", "ca.key", "-CAcreateserial", "-extfile", "server.ext", "-out", "server.crt")
    return ServerTls(cert=str(directory / "server.crt"), key=str(directory / "server.key"),
                     ca=str(directory / "ca.crt"))


def _build_has_tls() -> bool:
    """Without TLS, rediss:// is unsupported before any file is read."""
    try:
        dlock.Client("rediss://127.0.0.1:1", tls_ca="/nonexistent")
    except dlock.UnsupportedError:
        return False
    except dlock.DlockError:
        pass
    return True


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> ServerTls:
    if not _build_has_tls():
        pytest.skip("this build has no TLS (hiredis without hiredis_ssl)")
    return _certificates(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def tls_server(tls_files: ServerTls) -> Iterator[RedisServer]:
    with RedisServer(tls=tls_files) as server:
        yield server


def test_lock_over_tls_with_keyword_arguments(tls_server: RedisServer, tls_files: ServerTls) -> None:
    with dlock.Client(tls_server.url, tls_ca=Path(tls_files.ca), tls_verify="full") as client:
        lock = client.lock("py-over-tls", lease=10)
        assert lock.acquire(timeout=0)
        token = lock.fencing_token
        assert tls_server.cli("GET", "redisson_lock_token:{py-over-tls}") == str(token)
        lock.release()
        assert tls_server.cli("EXISTS", "py-over-tls") == "0"


def test_untrusted_server_is_a_connection_error(tls_server: RedisServer, tmp_path: Path) -> None:
    other = _certificates(tmp_path)  # a CA that signed nothing the server presents
    with pytest.raises(ConnectionError, match="certificate verify failed"):
        dlock.Client(tls_server.url, tls_ca=other.ca)
    with dlock.Client(tls_server.url, tls_ca=other.ca, tls_verify="none") as client:
        assert client.lock("unverified", lease=5).acquire(timeout=0)
