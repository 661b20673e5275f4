"""Debian's reference engines (stockfish, glaurung, toga2, ethereal-chess, ...), which Debian puts
in /usr/games: where one is, and installing it with apt-get when a script needs it."""
import os
import shutil
import subprocess


def locate(name):
    return shutil.which(name) or f"/usr/games/{name}"


def ensure(name):
    path = locate(name)
    if not os.path.exists(path):
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", name], check=True)
    return path
