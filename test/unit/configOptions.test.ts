/**
 * A session's config options (ACP `configOptions`) as the agent panel keeps
 * them: read from the session answer, replaced by `session/set_config_option`'s
 * answer and `config_option_update`, bounded, and checked when the webview
 * asks for a change. The shapes are codex-acp 2.6.0's and claude-agent-acp 0.101.0's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  configOptionRequest,
  configValueName,
  MAX_CONFIG_OPTIONS,
  MAX_CONFIG_VALUES,
  readConfigOptions,
} from '../../src/acp/configOptions';
import { SessionControls } from '../../src/acp/sessionControls';
import { isAgentPanelToHost, type ConfigOptionView, type SelectConfigOptionView } from '../../src/core/protocols/agentPanelProtocol';

function select(option: ConfigOptionView | undefined): SelectConfigOptionView {
  assert.equal(option?.type, 'select');
  return option as SelectConfigOptionView;
}

/** codex-acp 2.6.0's Fast mode for a client that advertises boolean config options. */
const fastMode = (on: boolean) => ({
  id: 'fast-mode',
  name: 'Fast mode',
  description: 'Fastest inference with increased plan usage',
  category: 'fast_mode',
  type: 'boolean',
  currentValue: on,
});

/** codex-acp 2.6.0's session/new answer (trimmed to two models). */
const codexOptions = (collaboration = 'default') => [
  {
    id: 'mode',
    name: 'Mode',
    description: 'Approval and sandboxing preset for the session',
    category: 'mode',
    type: 'select',
    currentValue: 'agent',
    options: [
      { value: 'read-only', name: 'Read-only', description: 'Requires approval to edit files and access the internet.' },
      { value: 'agent', name: 'Auto review', description: 'Only ask for actions detected as potentially unsafe' },
    ],
  },
  {
    id: 'collaboration_mode',
    name: 'Collaboration mode',
    description: 'How Codex collaborates for subsequent turns',
    category: 'collaboration_mode',
    type: 'select',
    currentValue: collaboration,
    options: [
      { value: 'default', name: 'Default' },
      { value: 'plan', name: 'Plan', description: 'Plan before making changes' },
    ],
  },
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'gpt-6.1-sol',
    options: [
      { value: 'gpt-6.1-sol', name: '6.1 Sol' },
      { value: 'gpt-6-luna', name: '6 Luna' },
    ],
  },
  {
    id: 'reasoning_effort',
    name: 'Reasoning effort',
    category: 'thought_level',
    type: 'select',
    currentValue: 'low',
    options: [
      { value: 'low', name: 'Low' },
      { value: 'high', name: 'High' },
    ],
  },
];

describe('config options', () => {
  it("keeps codex's options (model, reasoning effort, collaboration mode) with their values and descriptions", () => {
    const options = readConfigOptions(codexOptions())!;
    assert.deepEqual(
      options.map((o) => [o.id, o.name, o.current, select(o).values.map((v) => v.value)]),
      [
        ['mode', 'Mode', 'agent', ['read-only', 'agent']],
        ['collaboration_mode', 'Collaboration mode', 'default', ['default', 'plan']],
        ['model', 'Model', 'gpt-6.1-sol', ['gpt-6.1-sol', 'gpt-6-luna']],
        ['reasoning_effort', 'Reasoning effort', 'low', ['low', 'high']],
      ],
    );
    assert.deepEqual(select(options[1]).values[1], { value: 'plan', name: 'Plan', description: 'Plan before making changes' });
    assert.equal(options[1]!.category, 'collaboration_mode');
    assert.equal(configValueName(options[1], 'plan'), 'Plan');
    assert.equal(configValueName(options[1], 'unknown'), 'unknown');
  });

  it('flattens grouped values with their group, and shows a current value the agent did not list', () => {
    const [option] = readConfigOptions([
      {
        id: 'model',
        name: 'Model',
        type: 'select',
        currentValue: 'custom-1',
        options: [
          { group: 'fast', name: 'Fast', options: [{ value: 'luna', name: 'Luna' }] },
          { group: 'deep', name: 'Deep', options: [{ value: 'astra', name: 'Astra' }] },
        ],
      },
    ])!;
    assert.deepEqual(select(option).values, [
      { value: 'custom-1', name: 'custom-1' },
      { value: 'luna', name: 'Luna', group: 'Fast' },
      { value: 'astra', name: 'Astra', group: 'Deep' },
    ]);
  });

  it("keeps codex's boolean Fast mode as an on/off toggle beside the selects", () => {
    const options = readConfigOptions([...codexOptions(), fastMode(false)])!;
    assert.deepEqual(options.at(-1), {
      type: 'boolean',
      id: 'fast-mode',
      name: 'Fast mode',
      current: false,
      description: 'Fastest inference with increased plan usage',
      category: 'fast_mode',
    });
    assert.equal(options[0]!.type, 'select');
    assert.equal(readConfigOptions([fastMode(true)])![0]!.current, true);
    assert.equal(configValueName(options.at(-1), true), 'On');
    assert.equal(configValueName(options.at(-1), false, { on: 'An', off: 'Aus' }), 'Aus');
  });

  it('refuses malformed booleans: a value that is not true or false, no name, a bad id, and types it does not know', () => {
    const options = readConfigOptions([
      { ...fastMode(true), currentValue: 'true' },
      { ...fastMode(true), currentValue: 1 },
      { ...fastMode(true), currentValue: null },
      { id: 'fast-mode', name: 'Fast mode', type: 'boolean' },
      { ...fastMode(true), name: '  ' },
      { ...fastMode(true), id: '' },
      { ...fastMode(true), id: 'x'.repeat(201) },
      { ...fastMode(true), type: 'toggle' },
      { ...fastMode(true), id: 'kept', name: 'x'.repeat(500) },
    ])!;
    assert.deepEqual(
      options.map((o) => [o.id, o.type, o.current, o.name.length]),
      [['kept', 'boolean', true, 80]],
    );
  });

  it('leaves out malformed options, duplicates, and bounds lists and text', () => {
    const long = 'x'.repeat(1000);
    const many = Array.from({ length: MAX_CONFIG_VALUES + 50 }, (_, i) => ({ value: `v${i}`, name: `V${i}` }));
    const options = readConfigOptions([
      { id: 'no-values', name: 'None', type: 'select', currentValue: 'a', options: [] },
      { id: 'bad', name: 42, type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
      { id: 'x'.repeat(201), name: 'Long id', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
      { id: 'big', name: long, description: long, type: 'select', currentValue: 'v0', options: many },
      { id: 'big', name: 'Again', type: 'select', currentValue: 'v0', options: many },
      null,
      'mode',
    ])!;
    assert.deepEqual(
      options.map((o) => o.id),
      ['big'],
    );
    assert.equal(select(options[0]).values.length, MAX_CONFIG_VALUES);
    assert.ok(options[0]!.name.length <= 80 && options[0]!.description!.length <= 300);
    const lots = Array.from({ length: MAX_CONFIG_OPTIONS + 5 }, (_, i) => ({
      id: `o${i}`,
      name: `O${i}`,
      type: 'select',
      currentValue: 'a',
      options: [{ value: 'a', name: 'A' }],
    }));
    assert.equal(readConfigOptions(lots)!.length, MAX_CONFIG_OPTIONS);
    assert.equal(readConfigOptions(undefined), undefined);
    assert.equal(readConfigOptions([]), undefined);
  });
});

describe('SessionControls with config options', () => {
  it("takes the session answer's options, which replace its modes (ACP: a client showing config options ignores modes)", () => {
    const controls = new SessionControls();
    controls.opened({
      modes: { currentModeId: 'agent', availableModes: [{ id: 'agent', name: 'Auto review' }] },
      configOptions: codexOptions(),
    });
    assert.equal(controls.modes, undefined, 'the "Mode" config option stands for the modes');
    assert.equal(controls.configOptions?.length, 4);
    const withoutOptions = new SessionControls();
    withoutOptions.opened({ modes: { currentModeId: 'agent', availableModes: [{ id: 'agent', name: 'Auto review' }] } });
    assert.equal(withoutOptions.modes?.current, 'agent');
    assert.equal(withoutOptions.configOptions, undefined);
  });

  it('the answer to a change and config_option_update replace the whole list, and clear a refusal', () => {
    const controls = new SessionControls();
    controls.opened({ configOptions: codexOptions() });
    controls.configRefused('collaboration_mode', 'not now');
    assert.equal(controls.configOption('collaboration_mode')?.error, 'not now');
    assert.equal(controls.setConfigOptions(codexOptions('plan')), true);
    assert.equal(controls.configOption('collaboration_mode')?.current, 'plan');
    assert.equal(controls.configOption('collaboration_mode')?.error, undefined);
    assert.equal(controls.apply({ sessionUpdate: 'config_option_update', configOptions: codexOptions('default') as never }), true);
    assert.equal(controls.configOption('collaboration_mode')?.current, 'default');
    assert.equal(controls.setConfigOptions('nonsense'), false, 'a malformed answer keeps the list in force');
    assert.equal(controls.configOptions?.length, 4);
  });

  it('the webview may ask only for a bounded option id and value', () => {
    assert.ok(isAgentPanelToHost({ type: 'setConfigOption', configId: 'collaboration_mode', value: 'plan' }));
    assert.ok(!isAgentPanelToHost({ type: 'setConfigOption', configId: 'collaboration_mode' }));
    assert.ok(!isAgentPanelToHost({ type: 'setConfigOption', configId: '', value: 'plan' }));
    assert.ok(!isAgentPanelToHost({ type: 'setConfigOption', configId: 'm', value: 'x'.repeat(201) }));
    assert.ok(isAgentPanelToHost({ type: 'setConfigOption', configId: 'fast-mode', value: true }), 'a toggle sends its state');
    assert.ok(isAgentPanelToHost({ type: 'setConfigOption', configId: 'fast-mode', value: false }));
    assert.ok(!isAgentPanelToHost({ type: 'setConfigOption', configId: 'fast-mode', value: 1 }));
    assert.ok(!isAgentPanelToHost({ type: 'setConfigOption', configId: 'fast-mode', value: null }));
  });
});

describe('the session/set_config_option request for a change', () => {
  const options = readConfigOptions([...codexOptions(), fastMode(false)])!;
  const option = (id: string): ConfigOptionView => options.find((o) => o.id === id)!;

  it('a boolean is sent as { type: "boolean", value }', () => {
    assert.deepEqual(configOptionRequest('s1', option('fast-mode'), true), {
      sessionId: 's1',
      configId: 'fast-mode',
      type: 'boolean',
      value: true,
    });
  });

  it("a select's value is sent by id, without a type (ACP's default, what agents before booleans read)", () => {
    assert.deepEqual(configOptionRequest('s1', option('collaboration_mode'), 'plan'), {
      sessionId: 's1',
      configId: 'collaboration_mode',
      value: 'plan',
    });
  });

  it('nothing is sent for the value in force, a value not offered, or a value of the other kind', () => {
    assert.equal(configOptionRequest('s1', option('fast-mode'), false), undefined);
    assert.equal(configOptionRequest('s1', option('fast-mode'), 'true'), undefined);
    assert.equal(configOptionRequest('s1', option('collaboration_mode'), 'default'), undefined);
    assert.equal(configOptionRequest('s1', option('collaboration_mode'), 'nonexistent'), undefined);
    assert.equal(configOptionRequest('s1', option('collaboration_mode'), true), undefined);
  });
});
