/**
 * The requested schema of server-everything's `trigger-elicitation-request`
 * tool, copied verbatim from
 * node_modules/@modelcontextprotocol/server-everything/dist/tools/trigger-elicitation-request.js
 * (13 fields: every kind and option style a real server sends).
 */
export const everythingSchema = {
  type: 'object',
  properties: {
    name: {
      title: 'String',
      type: 'string',
      description: 'Your full, legal name',
    },
    check: {
      title: 'Boolean',
      type: 'boolean',
      description: 'Agree to the terms and conditions',
    },
    firstLine: {
      title: 'String with default',
      type: 'string',
      description: 'Favorite first line of a story',
      default: 'It was a dark and stormy night.',
    },
    email: {
      title: 'String with email format',
      type: 'string',
      format: 'email',
      description: 'Your email address (will be verified, and never shared with anyone else)',
    },
    homepage: {
      type: 'string',
      format: 'uri',
      title: 'String with uri format',
      description: 'Portfolio / personal website',
    },
    birthdate: {
      title: 'String with date format',
      type: 'string',
      format: 'date',
      description: 'Your date of birth',
    },
    integer: {
      title: 'Integer',
      type: 'integer',
      description: 'Your favorite integer (do not give us your phone number, pin, or other sensitive info)',
      minimum: 1,
      maximum: 100,
      default: 42,
    },
    number: {
      title: 'Number in range 1-1000',
      type: 'number',
      description: 'Favorite number (there are no wrong answers)',
      minimum: 0,
      maximum: 1000,
      default: 3.14,
    },
    untitledSingleSelectEnum: {
      type: 'string',
      title: 'Untitled Single Select Enum',
      description: 'Choose your favorite friend',
      enum: ['Monica', 'Rachel', 'Joey', 'Chandler', 'Ross', 'Phoebe'],
      default: 'Monica',
    },
    untitledMultipleSelectEnum: {
      type: 'array',
      title: 'Untitled Multiple Select Enum',
      description: 'Choose your favorite instruments',
      minItems: 1,
      maxItems: 3,
      items: {
        type: 'string',
        enum: ['Guitar', 'Piano', 'Violin', 'Drums', 'Bass'],
      },
      default: ['Guitar'],
    },
    titledSingleSelectEnum: {
      type: 'string',
      title: 'Titled Single Select Enum',
      description: 'Choose your favorite hero',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Green Lantern' },
        { const: 'hero-3', title: 'Wonder Woman' },
      ],
      default: 'hero-1',
    },
    titledMultipleSelectEnum: {
      type: 'array',
      title: 'Titled Multiple Select Enum',
      description: 'Choose your favorite types of fish',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
          { const: 'fish-3', title: 'Trout' },
        ],
      },
      default: ['fish-1'],
    },
    legacyTitledEnum: {
      type: 'string',
      title: 'Legacy Titled Single Select Enum',
      description: 'Choose your favorite type of pet',
      enum: ['pet-1', 'pet-2', 'pet-3', 'pet-4', 'pet-5'],
      enumNames: ['Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles'],
      default: 'pet-1',
    },
  },
  required: ['name'],
} as const;
