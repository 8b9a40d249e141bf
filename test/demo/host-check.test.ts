// npm start on loopback answers only requests that name it by a loopback name (DNS rebinding).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listensOnLoopback, namesLoopback } from '../../demo/host-check.js';

test('loopback names are answered, with or without a port', () => {
  for (const host of [
    'localhost',
    'localhost:8080',
    'LOCALHOST:1',
    'app.localhost:3000',
    '127.0.0.1',
    '127.0.0.1:8080',
    '127.1.2.3:9',
    '[::1]:8080',
  ])
    assert.equal(namesLoopback(host), true, host);
});

test('other names, rebinding names that contain a loopback name included, are not', () => {
  for (const host of [
    undefined,
    '',
    'rebind.attacker.example:8080',
    'localhost.attacker.example',
    'localhost..',
    'evil-localhost.example',
    '127.0.0.1.attacker.example',
    'attacker.example#localhost',
    'localhost:8080@attacker.example',
    '10.0.0.5:8080',
    '[::2]:8080',
  ])
    assert.equal(namesLoopback(host), false, String(host));
});

test('the check applies while listening on loopback only', () => {
  for (const host of ['127.0.0.1', 'localhost', 'LOCALHOST', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '127.0.0.2'])
    assert.equal(listensOnLoopback(host), true, host);
  for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) assert.equal(listensOnLoopback(host), false, host);
});
