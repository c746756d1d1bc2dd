"""dlock schema --url URL: the statements of the URL's SQL flavour and table; other backends'
URLs are refused naming the backend. (test_postgresql runs the statements on a real server.)"""
import os
import subprocess
import unittest

from dlock_case import DLOCK

UNAVAILABLE = 69  # docs/cli.md: a URL this command cannot serve
USAGE = 64


def schema(*args, env=None):
    done = subprocess.run([DLOCK, "schema", *args], capture_output=True, text=True, timeout=30,
                          env=env or dict(os.environ))
    return done.returncode, done.stdout, done.stderr


class SchemaText(unittest.TestCase):
    def assert_printed(self, url):
        code, out, err = schema("--url", url)
        self.assertEqual((code, err), (0, ""), url)
        self.assertTrue(out.endswith(";\n"), out)
        return out

    def test_postgresql_lock_table_and_token_sequence(self):
        for scheme in ("postgresql", "postgres"):
            out = self.assert_printed(f"{scheme}://app:secret@db.example:5432/app")
            self.assertIn("CREATE SEQUENCE IF NOT EXISTS dlock_token_seq", out)
            self.assertIn("CREATE TABLE IF NOT EXISTS dlock_locks", out)
            self.assertIn("timestamptz", out)
            self.assertIn("CREATE TABLE IF NOT EXISTS dlock_semaphore ", out)
            self.assertIn("CREATE TABLE IF NOT EXISTS dlock_semaphore_lease", out)
            self.assertIn("CREATE TABLE IF NOT EXISTS dlock_locks_leaders", out)
            self.assertNotIn("secret", out)

    def test_mysql_lock_table_and_token_row(self):
        out = self.assert_printed("mysql://app@db.example/app")
        self.assertIn("CREATE TABLE IF NOT EXISTS dlock_token", out)
        self.assertIn("CREATE TABLE IF NOT EXISTS dlock_locks", out)
        self.assertIn("ENGINE=InnoDB", out)
        self.assertIn("CREATE TABLE IF NOT EXISTS dlock_semaphore_lease", out)
        self.assertIn("CREATE TABLE IF NOT EXISTS dlock_locks_leaders", out)
        self.assertNotIn("SEQUENCE", out)

    def test_the_url_table_names_the_table(self):
        self.assertIn("CREATE TABLE IF NOT EXISTS jobs_locks", self.assert_printed(
            "postgresql://app@db.example/app?table=jobs_locks"))
        self.assertIn("CREATE TABLE IF NOT EXISTS jobs_locks", self.assert_printed(
            "mysql://app@db.example/app?table=jobs_locks"))

    def test_table_shedlock_is_shedlocks_layout_in_each_flavour(self):
        for url in ("postgresql://app@db.example/app?table=shedlock", "mysql://app@db.example/app?table=shedlock"):
            out = self.assert_printed(url)
            self.assertIn("shedlock", out)
            self.assertIn("locked_by VARCHAR(255)", out)
            self.assertIn("lock_until", out)
            self.assertNotIn("dlock_locks", out)
            self.assertNotIn("dlock_semaphore", out)
            self.assertNotIn("_leaders", out)

    def test_the_url_comes_from_dlock_url_too(self):
        code, out, _ = schema(env=dict(os.environ, DLOCK_URL="mysql://app@db.example/app"))
        self.assertEqual(code, 0)
        self.assertIn("ENGINE=InnoDB", out)

    def test_backends_without_a_schema_are_refused_by_name(self):
        for url, backend in (("redis://127.0.0.1:6379", "redis"), ("zookeeper://127.0.0.1:2181", "zookeeper")):
            code, out, err = schema("--url", url)
            self.assertEqual(code, UNAVAILABLE, err)
            self.assertEqual(out, "")
            self.assertIn(f"the {backend} backend", err)
            self.assertTrue(err.startswith("dlock: "), err)

    def test_a_bad_url_or_option_is_a_usage_error(self):
        self.assertEqual(schema("--url", "postgresql://db.example/app?tabel=x")[0], USAGE)
        self.assertEqual(schema("--url", "postgresql://db.example/app?table=no-dashes")[0], USAGE)
        self.assertEqual(schema("--json")[0], USAGE)
        self.assertEqual(schema("extra")[0], USAGE)


if __name__ == "__main__":
    unittest.main()
