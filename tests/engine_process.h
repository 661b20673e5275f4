// Drives the engine binary through pipes, as a GUI would, with a timeout on every wait.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

class EngineProcess {
public:
    explicit EngineProcess(const std::vector<std::string>& args = {}) : EngineProcess(QUADBIT_ENGINE, args) {}

    // Another program (mpirun, which starts the cluster engine) with its arguments.
    EngineProcess(const std::string& program, const std::vector<std::string>& args) {
        int in[2], out[2];
        if (pipe(in) || pipe(out)) throw std::runtime_error("pipe failed");
        pid = fork();
        if (pid == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            close(in[1]);
            close(out[0]);
            std::vector<char*> argv{const_cast<char*>(program.c_str())};
            for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            execv(program.c_str(), argv.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        toEngine = in[1];
        fromEngine = out[0];
        signal(SIGPIPE, SIG_IGN);
    }

    ~EngineProcess() {
        if (toEngine >= 0) close(toEngine);
        if (pid > 0 && !exited) {
            int status;
            for (int i = 0; i < 200 && waitpid(pid, &status, WNOHANG) == 0; ++i) usleep(10000);
            if (waitpid(pid, &status, WNOHANG) == 0) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
            }
        }
        close(fromEngine);
    }

    void send(const std::string& line) {
        std::string text = line + "\n";
        if (write(toEngine, text.data(), text.size()) != ssize_t(text.size()))
            throw std::runtime_error("engine closed its input");
    }

    // Closes the engine's input, as a GUI that exits would.
    void closeInput() {
        close(toEngine);
        toEngine = -1;
    }

    // The next line, or throws after the timeout.
    std::string readLine(int timeoutMs = 10000) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (true) {
            auto nl = buffer.find('\n');
            if (nl != std::string::npos) {
                std::string line = buffer.substr(0, nl);
                buffer.erase(0, nl + 1);
                return line;
            }
            int left =
                int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                        .count());
            if (left <= 0)
                throw std::runtime_error("no answer from the engine within " + std::to_string(timeoutMs) + " ms");
            pollfd p{fromEngine, POLLIN, 0};
            if (poll(&p, 1, left) <= 0) continue;
            char chunk[4096];
            ssize_t n = read(fromEngine, chunk, sizeof chunk);
            if (n <= 0) throw std::runtime_error("the engine exited");
            buffer.append(chunk, size_t(n));
        }
    }

    // Lines up to and including the first that starts with `prefix`.
    std::vector<std::string> readUntil(const std::string& prefix, int timeoutMs = 10000) {
        std::vector<std::string> lines;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (true) {
            int left =
                int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                        .count());
            lines.push_back(readLine(std::max(left, 1)));
            if (lines.back().rfind(prefix, 0) == 0) return lines;
        }
    }

    // Sends isready and returns everything printed before readyok.
    std::vector<std::string> sync(int timeoutMs = 10000) {
        send("isready");
        auto lines = readUntil("readyok", timeoutMs);
        lines.pop_back();
        return lines;
    }

    // Waits for the process to end; returns its exit status, or -1 on timeout.
    int waitExit(int timeoutMs = 5000) {
        int status = 0;
        for (int waited = 0; waited < timeoutMs; waited += 5) {
            if (waitpid(pid, &status, WNOHANG) == pid) {
                exited = true;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            usleep(5000);
        }
        return -1;
    }

    // Median time from `stop` to `bestmove` over ten `go infinite` searches, in microseconds.
    long medianStopLatencyMicros() {
        std::vector<long> latencies;
        for (int i = 0; i < 10; ++i) {
            send("go infinite");
            usleep(150000);
            sync();
            auto start = std::chrono::steady_clock::now();
            send("stop");
            readUntil("bestmove", 2000);
            latencies.push_back(
                long(std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start)
                         .count()));
        }
        std::sort(latencies.begin(), latencies.end());
        return latencies[latencies.size() / 2];
    }

private:
    pid_t pid = -1;
    int toEngine = -1, fromEngine = -1;
    bool exited = false;
    std::string buffer;
};
