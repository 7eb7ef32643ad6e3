/**
 * Where `litho users create` gets a password without putting it on the command line (where
 * `ps` and /proc show it to every local user): a pipe (`--password-stdin`) or a prompt with
 * echo off when stdin is a terminal.
 *
 * @module commands/_password-input
 */
import { createInterface } from 'node:readline'
import { Writable } from 'node:stream'
import { UsageError } from './usage-error.js'

/** The stdin an admin command reads: a stream, a terminal when `isTTY`. */
export type PasswordStdin = NodeJS.ReadableStream & { isTTY?: boolean }

/**
 * Reads one password from a pipe: everything up to EOF, less one trailing newline (so
 * `echo 'pw' |` and `printf 'pw' |` give the same password). Stops reading as soon as more than
 * `maxBytes` (plus the newline) arrived, so a runaway pipe cannot fill memory.
 *
 * @throws UsageError naming `--password-stdin` when the input is too long, empty, or has more than one line.
 * @example const password = await readPasswordFromPipe(process.stdin, 1024)
 */
export async function readPasswordFromPipe(stdin: PasswordStdin, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stdin as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    chunks.push(bytes)
    size += bytes.length
    // +2: room for a trailing "\r\n".
    if (size > maxBytes + 2) {
      ;(stdin as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.()
      throw new UsageError(`--password-stdin: expected at most ${maxBytes} bytes`)
    }
  }
  const text = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '')
  if (text === '') throw new UsageError('--password-stdin: expected a password on stdin, received nothing')
  if (/[\r\n]/.test(text)) throw new UsageError('--password-stdin: expected one line, received several')
  return text
}

/**
 * Asks for a password on a terminal with echo off, twice, on `output` (stderr: stdout carries
 * the command's JSON answer). Ctrl-C or Ctrl-D ends it with a UsageError.
 *
 * @throws UsageError when the two entries differ or the prompt is abandoned.
 * @example const password = await promptPassword(process.stdin, process.stderr)
 */
export async function promptPassword(stdin: PasswordStdin, output: { write(text: string): unknown }): Promise<string> {
  const first = await askHidden(stdin, output, 'Password: ')
  const second = await askHidden(stdin, output, 'Repeat the password: ')
  if (first !== second) throw new UsageError('the two passwords differ')
  return first
}

/** One line read with readline in terminal mode; only the prompt reaches the terminal, never what is typed. */
function askHidden(stdin: PasswordStdin, output: { write(text: string): unknown }, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let muted = false
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        if (!muted) output.write(chunk.toString())
        done()
      },
    })
    const rl = createInterface({ input: stdin, output: sink, terminal: true })
    let answered = false
    rl.on('SIGINT', () => {
      rl.close()
    })
    rl.on('close', () => {
      if (!answered) {
        output.write('\n')
        reject(new UsageError('no password entered'))
      }
    })
    rl.question(prompt, (answer) => {
      answered = true
      rl.close()
      output.write('\n')
      resolve(answer)
    })
    // After the prompt is written: readline echoes each key through `sink`, which drops it.
    muted = true
  })
}
