// Drives the engine binary through pipes, as a GUI would, with a timeout on every wait: with
// fork and poll on POSIX systems, with CreateProcess and anonymous pipes on Windows (the
// Windows build's tests run under Wine).
#pragma once

#ifdef _WIN32
#ifndef NOMINMAX  // libstdc++'s MinGW headers may have defined it
#define NOMINMAX
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

class EngineProcess {
public:
    explicit EngineProcess(const std::vector<std::string>& args = {}) : EngineProcess(QUADBIT_ENGINE, args) {}

    // Another program (mpirun, which starts the cluster engine) with its arguments.
    EngineProcess(const std::string& program, const std::vector<std::string>& args) { start(program, args); }

    ~EngineProcess() { finish(); }

    void send(const std::string& line) {
        if (!writeAll(line + "\n")) throw std::runtime_error("engine closed its input");
    }

    // Closes the engine's input, as a GUI that exits would.
    void closeInput() { closeWriting(); }

    // The next line, or throws after the timeout.
    std::string readLine(int timeoutMs = 10000) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (true) {
            auto nl = buffer.find('\n');
            if (nl != std::string::npos) {
                std::string line = buffer.substr(0, nl);
                buffer.erase(0, nl + 1);
                if (!line.empty() && line.back() == '\r') line.pop_back();  // Windows' line ends
                return line;
            }
            int left =
                int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                        .count());
            if (left <= 0)
                throw std::runtime_error("no answer from the engine within " + std::to_string(timeoutMs) + " ms");
            if (!readSome(left)) throw std::runtime_error("the engine exited");
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
        for (int waited = 0; waited < timeoutMs; waited += 5) {
            if (int status; exitStatus(status)) return status;
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return -1;
    }

    // Median time from `stop` to `bestmove` over ten `go infinite` searches, in microseconds.
    long medianStopLatencyMicros() {
        std::vector<long> latencies;
        for (int i = 0; i < 10; ++i) {
            send("go infinite");
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
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
#ifdef _WIN32
    void start(const std::string& program, const std::vector<std::string>& args) {
        SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
        HANDLE childIn = nullptr, childOut = nullptr;
        if (!CreatePipe(&childIn, &toEngine, &inherit, 0) || !CreatePipe(&fromEngine, &childOut, &inherit, 0))
            throw std::runtime_error("CreatePipe failed");
        SetHandleInformation(toEngine, HANDLE_FLAG_INHERIT, 0);
        SetHandleInformation(fromEngine, HANDLE_FLAG_INHERIT, 0);
        std::string commandLine = "\"" + program + "\"";
        for (const auto& a : args) commandLine += " \"" + a + "\"";
        STARTUPINFOA startup{};
        startup.cb = sizeof startup;
        startup.dwFlags = STARTF_USESTDHANDLES;
        startup.hStdInput = childIn;
        startup.hStdOutput = childOut;
        startup.hStdError = GetStdHandle(STD_ERROR_HANDLE);
        PROCESS_INFORMATION info{};
        if (!CreateProcessA(nullptr, commandLine.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &startup, &info))
            throw std::runtime_error("cannot start " + program);
        CloseHandle(info.hThread);
        CloseHandle(childIn);
        CloseHandle(childOut);
        process = info.hProcess;
    }

    void finish() {
        closeWriting();
        if (process) {
            if (WaitForSingleObject(process, 2000) != WAIT_OBJECT_0) TerminateProcess(process, 1);
            CloseHandle(process);
        }
        if (fromEngine) CloseHandle(fromEngine);
    }

    bool writeAll(const std::string& text) {
        DWORD written = 0;
        return toEngine && WriteFile(toEngine, text.data(), DWORD(text.size()), &written, nullptr) &&
               written == text.size();
    }

    void closeWriting() {
        if (toEngine) CloseHandle(toEngine);
        toEngine = nullptr;
    }

    // Reads what the engine has written, waiting up to `timeoutMs`; false once it has exited.
    bool readSome(int timeoutMs) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        while (true) {
            DWORD available = 0;
            if (!PeekNamedPipe(fromEngine, nullptr, 0, nullptr, &available, nullptr)) return false;
            if (available) {
                char chunk[4096];
                DWORD n = 0;
                if (!ReadFile(fromEngine, chunk, std::min<DWORD>(available, sizeof chunk), &n, nullptr) || !n)
                    return false;
                buffer.append(chunk, n);
                return true;
            }
            if (std::chrono::steady_clock::now() >= deadline) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    bool exitStatus(int& status) {
        DWORD code = 0;
        if (!process || !GetExitCodeProcess(process, &code) || code == STILL_ACTIVE) return false;
        status = int(code);
        return true;
    }

    HANDLE process = nullptr, toEngine = nullptr, fromEngine = nullptr;
#else
    void start(const std::string& program, const std::vector<std::string>& args) {
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

    void finish() {
        closeWriting();
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

    bool writeAll(const std::string& text) {
        return toEngine >= 0 && write(toEngine, text.data(), text.size()) == ssize_t(text.size());
    }

    void closeWriting() {
        if (toEngine >= 0) close(toEngine);
        toEngine = -1;
    }

    // Reads what the engine has written, waiting up to `timeoutMs`; false once it has exited.
    bool readSome(int timeoutMs) {
        pollfd p{fromEngine, POLLIN, 0};
        if (poll(&p, 1, timeoutMs) <= 0) return true;
        char chunk[4096];
        ssize_t n = read(fromEngine, chunk, sizeof chunk);
        if (n <= 0) return false;
        buffer.append(chunk, size_t(n));
        return true;
    }

    bool exitStatus(int& status) {
        int raw = 0;
        if (waitpid(pid, &raw, WNOHANG) != pid) return false;
        exited = true;
        status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
        return true;
    }

    pid_t pid = -1;
    int toEngine = -1, fromEngine = -1;
    bool exited = false;
#endif
    std::string buffer;
};
