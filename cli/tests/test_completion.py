"""Shell completion: bash's run for real, and both files offer every option --help lists."""
import re
import subprocess
import unittest
from pathlib import Path

from dlock_case import DLOCK

COMPLETION = Path(__file__).resolve().parents[1] / "completion"


def bash_completions(*words):
    """What bash offers for the last of `words` (the word being completed)."""
    script = f"""
source {COMPLETION / "dlock.bash"}
COMP_WORDS=({" ".join(f"'{word}'" for word in words)})
COMP_CWORD={len(words) - 1}
_dlock
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    done = subprocess.run(["bash", "--norc", "-c", script], capture_output=True, text=True, check=True)
    return done.stdout.split()


class Completion(unittest.TestCase):
    def test_bash_completes_commands_options_and_the_command_to_run(self):
        self.assertEqual(bash_completions("dlock", "r"), ["run", "release"])
        self.assertEqual(bash_completions("dlock", "run", "--hold"), ["--hold-after-success"])
        self.assertEqual(bash_completions("dlock", "list", "--j"), ["--json"])
        self.assertEqual(bash_completions("dlock", "run", "--wait", ""), [], "a duration is not guessed")
        self.assertIn("bash", bash_completions("dlock", "run", "job", "--", "bas"))
        self.assertEqual(bash_completions("dlock", "l"), ["list", "leader"])
        self.assertEqual(bash_completions("dlock", "elect", "--va"), ["--value"])
        self.assertEqual(bash_completions("dlock", "elect", "--value", ""), [], "a value is not guessed")
        self.assertIn("bash", bash_completions("dlock", "elect", "jobs", "--", "bas"))
        self.assertEqual(bash_completions("dlock", "leader", "--j"), ["--json"])
        self.assertEqual(bash_completions("dlock", "leader", "--w"), ["--watch"])

    def test_both_shells_offer_every_option_of_the_help(self):
        help_text = subprocess.run([DLOCK, "--help"], capture_output=True, text=True, check=True).stdout
        options = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", help_text)) - {"--"}
        self.assertIn("--hold-after-success", options)
        self.assertIn("-vv", options)
        for file in ("dlock.bash", "_dlock"):
            text = (COMPLETION / file).read_text()
            offered = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", text))
            with self.subTest(file=file):
                self.assertLessEqual(options, offered)


if __name__ == "__main__":
    unittest.main()
