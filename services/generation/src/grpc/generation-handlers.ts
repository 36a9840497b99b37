import { GenerationServiceService, type VoiceProfile as VoiceProfileMessage } from '@spa/contracts/generation/v1/generation';
import { bindService, type ServiceBinding } from '@spa/grpc';
import type { VoiceProfile } from '../domain/voice/voice-profile.js';
import type { VoiceProfiles } from '../domain/voice/voice-profiles.js';
import type { Generations } from '../domain/writing/generations.js';

function voiceProfileMessage(p: VoiceProfile): VoiceProfileMessage {
  return {
    sampleSize: p.sampleSize,
    averageLength: p.averageLength,
    medianLength: p.medianLength,
    averageLines: p.averageLines,
    emojiPerPost: p.emojiPerPost,
    hashtagsPerPost: p.hashtagsPerPost,
    topHashtags: p.topHashtags,
    frequentPhrases: p.frequentPhrases,
    questionRatio: p.questionRatio,
    exclamationRatio: p.exclamationRatio,
    listRatio: p.listRatio,
    tone: p.tone,
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** gRPC transport of the generate use cases and the voice profile. */
export function generationService(deps: { generations: Generations; voice: VoiceProfiles }): ServiceBinding {
  const { generations } = deps;
  return bindService('generation.v1.GenerationService', GenerationServiceService, {
    generate: async (req) => generations.generate(req.workspaceId, { topic: req.topic, platform: req.platform, angle: req.angle }),
    generateFromIdea: async (req) => {
      const result = await generations.generateFromIdea(req.workspaceId, { idea: req.idea, platform: req.platform });
      return { body: result.body, drafts: result.drafts, modelDegraded: result.modelDegraded };
    },
    generateBatch: async (req) => generations.generateBatch(req.workspaceId, { category: req.category, count: req.count, platform: req.platform, idempotencyKey: req.idempotencyKey }),
    generateThread: async (req) => generations.generateThread(req.workspaceId, { topic: req.topic, tweetCount: req.tweetCount, platform: req.platform }),
    generateCarousel: async (req) => {
      const c = await generations.generateCarousel(req.workspaceId, {
        topic: req.topic,
        slideCount: req.slideCount,
        angle: req.angle,
        socialAccountId: req.socialAccountId,
      });
      return {
        slides: c.slides,
        document: { r2Key: c.document.r2Key, url: c.document.url, pageCount: c.document.pageCount, contentType: c.document.contentType, sizeBytes: c.document.sizeBytes },
        caption: c.caption,
        modelDegraded: c.modelDegraded,
        socialAccountId: c.socialAccountId,
      };
    },
    getVoiceProfile: async (req) => ({ voiceProfile: voiceProfileMessage(await deps.voice.profile(req.workspaceId, { refresh: req.refresh })) }),
  });
}
