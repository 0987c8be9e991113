// The one place the indexer takes ABIs from: the generated, typed ABIs of abis/.
export {
  achievementNftAbi,
  easAbi,
  guildRegistryAbi,
  missionEscrowAbi,
  operatorRegistryAbi,
  reputationRegistryAbi,
} from "../../abis/index.ts";
