/**
 * Elicit: Find MCP Servers of Other Tools… — reads every other tool's files
 * (read only), lists what each has, and turns on the tools the person ticks
 * (`elicit.discovery`, user settings). Nothing starts here: a server starts when
 * it is first used, like every other.
 */
import * as vscode from 'vscode';
import { OTHER_TOOLS, OTHER_TOOL_NAMES, type OtherTool } from '../../../core/mcpConfig/otherToolNames';
import { inertText, oneLine } from '../../../core/display';
import { SETTING, settings } from '../../settings';
import { readOtherTools, type SourceLocations } from './configSources';
import { KEPT_OPEN } from '../../keptOpen';

interface ToolItem extends vscode.QuickPickItem {
  tool: OtherTool;
}

export async function findOtherToolServers(locations: SourceLocations): Promise<void> {
  const reads = await readOtherTools(OTHER_TOOLS, locations);
  const enabled = settings.discovery();
  const items: ToolItem[] = OTHER_TOOLS.map((tool) => {
    const mine = reads.filter((read) => read.kind === 'otherTool' && read.shortName === OTHER_TOOL_NAMES[tool]);
    const servers = mine.flatMap((read) => read.parsed.servers.map((server) => server.name));
    const problems = mine.flatMap((read) => read.parsed.problems);
    const found =
      mine.length === 0
        ? vscode.l10n.t('no configuration found')
        : servers.length === 0
          ? vscode.l10n.t('no servers')
          : servers.length === 1
            ? vscode.l10n.t('1 server: {0}', servers[0]!)
            : vscode.l10n.t('{0} servers: {1}', servers.length, servers.join(', '));
    const broken = problems.length > 0 ? ` · ${oneLine(problems[0]!.message, 120)}` : '';
    return {
      tool,
      label: inertText(OTHER_TOOL_NAMES[tool]),
      description: inertText(oneLine(`${found}${broken}`, 200)),
      detail: mine.length > 0 ? inertText(oneLine(mine.map((read) => read.file?.fsPath ?? read.name).join(', '), 200)) : undefined,
      picked: enabled[tool] === true,
    };
  });
  const chosen = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('MCP Servers of Other Tools'),
    placeHolder: vscode.l10n.t('Tick the tools whose servers Elicit should offer'),
    ...KEPT_OPEN,
  });
  if (!chosen) return;
  const value = Object.fromEntries(OTHER_TOOLS.map((tool) => [tool, chosen.some((item) => item.tool === tool)]));
  await vscode.workspace.getConfiguration().update(SETTING.discovery, value, vscode.ConfigurationTarget.Global);
}
